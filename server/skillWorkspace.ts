import { isJsonDocumentUri } from './documentKinds';
import * as path from 'node:path';
import type { Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CONFIG_FILE_NAMES, isExcluded, loadConfigFor, mergeRuleConfigs } from '../src/core/skill';
import type { SkillsHost, SyncSkillsHost } from '../src/core/host/skillsHost';
import type { ParsedSkillFile, RuleConfig, SkillDiagnostic, ValidationMode } from '../src/core/skill';
import { CachingFilesHost } from './cachingFilesHost';
import { ConfusableCatalog } from './confusableCatalog';
import { listDirSync, readTextSync } from './fileSystem';
import { diagnosticsFor, type DiagnosticsByUri } from './services/diagnostics';
import type { ServerSettings } from './serverSettings';
import { analyzeSkill, checkSkill, placeOf, readSkill, type SkillAnalysis, type SkillPlace } from './skillAnalysis';
import { otherFileFindings, type CoreContext } from './skillCore';
import { isInside, pathToUri, uriToPath } from './uris';
import { ReportOnce } from '../src/core/reportOnce';

const SKILL_FILE = 'SKILL.md';

/** An open document's read text and its check, of one version. */
interface OpenEntry {
  version: number;
  read: SkillAnalysis;
  analysis?: Promise<SkillAnalysis | undefined>;
  checked?: SkillAnalysis;
}

/** A changed file on disk, as reported by workspace/didChangeWatchedFiles. */
export interface FileChange {
  path: string;
  deleted: boolean;
}

/**
 * The server's state: the SKILL.md files it knows (open documents and files found on disk), their
 * latest analyses, pending debounced validations, and which URIs it has published problems to.
 */
export class SkillWorkspace {
  /** Per open document: its read text (parsed, no rule run) and its checked analysis, both of one version. */
  private readonly cache = new Map<string, OpenEntry>();
  /** Per-URI chain of publications, so results are published in the order validations started. */
  private readonly queues = new Map<string, Promise<void>>();
  private readonly diskSkillFiles = new Set<string>();
  private readonly published = new Map<string, Set<string>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly files: CachingFilesHost;
  private readonly folderCache = new Map<string, Promise<SkillDiagnostic[]>>();
  private readonly core: CoreContext;
  /** The configuration per skill folder, loaded once until a configuration file or the settings change. */
  private readonly configs = new Map<string, Promise<RuleConfig | 'excluded'>>();
  private readonly reportedConfigProblems = new ReportOnce();
  /** The catalog rule over every skill published, and each skill's last published analysis (to publish again). */
  private readonly confusable = new ConfusableCatalog();
  private readonly lastPublished = new Map<string, SkillAnalysis>();
  /** Per open document: its path and its skill folder's listing, kept between versions until a file changes. */
  private readonly places = new Map<string, SkillPlace>();

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly fsys: SyncSkillsHost,
    host: SkillsHost,
    public settings: ServerSettings,
    /** Resolves once the messages already received are handled (see Inbox). */
    private readonly whenQuiet: () => Promise<void>,
  ) {
    this.files = new CachingFilesHost(host);
    this.core = {
      host: this.files,
      folderFindings: (dir, parsed, mode, config) => this.folderFindings(dir, parsed, mode, config),
      configFor: (dir) => this.configFor(dir),
    };
  }

  /** The rule configuration of a skill folder: its nearest configuration file, then the setting over it. */
  private configFor(skillDir: string | undefined): Promise<RuleConfig | 'excluded'> {
    if (!skillDir) return Promise.resolve(this.settings.rules);
    let c = this.configs.get(skillDir);
    if (!c) {
      c = loadConfigFor(skillDir, this.files).then((loaded) => {
        for (const p of this.reportedConfigProblems.fresh(loaded.problems, (text) => text)) this.connection.console.warn(`agent-skills: ${p}`);
        return isExcluded(loaded, skillDir) ? 'excluded' : mergeRuleConfigs(loaded.config, this.settings.rules);
      });
      this.configs.set(skillDir, c);
    }
    return c;
  }

  /** Findings about a skill's other files, computed once per folder state and mode. */
  private folderFindings(skillDir: string, parsed: ParsedSkillFile, mode: ValidationMode, config: RuleConfig): Promise<SkillDiagnostic[]> {
    const key = `${mode}\u0000${skillDir}`;
    let v = this.folderCache.get(key);
    if (!v) {
      v = otherFileFindings(skillDir, parsed, mode, this.files, config);
      this.folderCache.set(key, v);
      v.catch(() => this.folderCache.delete(key));
    }
    return v;
  }

  /** The cache entry of an open document at its current version, its text read (parsed, no rule run). */
  private entryOf(doc: TextDocument): OpenEntry {
    const cached = this.cache.get(doc.uri);
    if (cached && cached.version === doc.version) return cached;
    let place = this.places.get(doc.uri);
    if (!place) this.places.set(doc.uri, (place = placeOf(doc.uri, this.fsys)));
    const entry: OpenEntry = { version: doc.version, read: readSkill(doc.uri, doc.version, doc.getText(), place) };
    this.cache.set(doc.uri, entry);
    return entry;
  }

  /**
   * The check of an entry, started once. The rules start only after the messages already received are handled (a
   * hover behind this change is answered from the read text, a newer version read), and not at all once a newer
   * version arrived: of a burst of 1 MB edits only the last is checked.
   */
  private checkOf(uri: string, entry: OpenEntry): Promise<SkillAnalysis | undefined> {
    entry.analysis ??= this.whenQuiet()
      .then(() => checkSkill(entry.read, this.settings.mode, this.core, () => this.documents.get(uri)?.version === entry.version))
      .then((a) => (entry.checked = a));
    return entry.analysis;
  }

  /**
   * The checked analysis of an open document at its current version (`undefined` when a newer version superseded
   * it before its rules ran), or of a SKILL.md on disk.
   */
  analysisOf(uri: string): Promise<SkillAnalysis | undefined> {
    const doc = this.documents.get(uri);
    if (doc) return this.checkOf(uri, this.entryOf(doc));
    const p = uriToPath(uri);
    const text = p ? readTextSync(this.fsys, p) : undefined;
    return text === undefined ? Promise.resolve(undefined) : analyzeSkill(uri, null, text, this.settings.mode, this.core, this.fsys);
  }

  /**
   * What a request that needs the text, not the rules (hover, links, symbols), answers from, without waiting for a
   * validation: the checked analysis when it is done for the current version, else the read text (no problems).
   */
  readOf(uri: string): Promise<SkillAnalysis | undefined> {
    const doc = this.documents.get(uri);
    if (!doc) return this.analysisOf(uri);
    const e = this.entryOf(doc);
    return Promise.resolve(e.checked ?? e.read);
  }

  diagnosticsOf(a: SkillAnalysis): DiagnosticsByUri {
    return diagnosticsFor(a, this.settings);
  }

  /** Starts validating the document's current text now and publishes the result in order. */
  validateOpen(doc: TextDocument): Promise<void> {
    this.cancelTimer(doc.uri);
    return this.publishWhenDone(doc.uri, this.analysisOf(doc.uri), true);
  }

  /**
   * Publishes the analysis once it and every earlier publication for `uri` are done; resolves when sent. No
   * analysis clears the URI's problems (the file is gone), unless `open`: then a newer version superseded it.
   */
  private publishWhenDone(uri: string, analysis: Promise<SkillAnalysis | undefined>, open = false): Promise<void> {
    const prev = this.queues.get(uri) ?? Promise.resolve();
    const next = prev
      .then(() => analysis)
      .then((a) => (a ? this.publish(a) : open ? undefined : this.clear(uri)))
      .catch((e: unknown) => this.connection.console.error(`agent-skills: validation of ${uri} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`))
      .finally(() => {
        if (this.queues.get(uri) === next) this.queues.delete(uri);
      });
    this.queues.set(uri, next);
    return next;
  }

  /** Validates after the configured pause; a pause of 0 validates at once. */
  scheduleValidation(doc: TextDocument): void {
    const cached = this.cache.get(doc.uri);
    if (cached && cached.version === doc.version && cached.analysis) return;
    if (this.settings.debounceMs <= 0) {
      void this.validateOpen(doc);
      return;
    }
    this.cancelTimer(doc.uri);
    const uri = doc.uri;
    this.timers.set(
      uri,
      setTimeout(() => {
        this.timers.delete(uri);
        try {
          const current = this.documents.get(uri);
          if (current) void this.validateOpen(current);
        } catch (e) {
          this.connection.console.error(`agent-skills: validation of ${uri} failed: ${String(e)}`);
        }
      }, this.settings.debounceMs),
    );
  }

  /** A closed document keeps the problems of its saved file, so the Problems view still lists them. */
  closed(uri: string): void {
    this.cancelTimer(uri);
    this.cache.delete(uri);
    this.places.delete(uri);
    const p = uriToPath(uri);
    if (p && path.basename(p) === SKILL_FILE && this.fsys.kind(p) === 'file') void this.validateFile(p, uri);
    else this.clear(uri);
  }

  /** Validates a SKILL.md by path: the open document's text when open, else the file on disk. */
  validateFile(p: string, uri = pathToUri(p)): Promise<void> {
    this.diskSkillFiles.add(p);
    const doc = this.openDocumentAt(p);
    if (doc) return this.validateOpen(doc);
    return this.publishWhenDone(uri, this.analysisOf(uri));
  }

  /** Re-validates every skill whose folder holds a changed, created or deleted file. */
  filesChanged(changes: FileChange[]): void {
    // A folder's listing (the references' folders) may have changed: read it again on the next version.
    this.places.clear();
    // A configuration file applies to every skill below its folder: re-read it and re-validate them all.
    if (changes.some((c) => (CONFIG_FILE_NAMES as readonly string[]).includes(path.basename(c.path)))) {
      for (const c of changes) this.files.invalidate(c.path);
      this.revalidateAll();
      return;
    }
    const affected = new Set<string>();
    for (const c of changes) {
      this.files.invalidate(c.path);
      for (const key of [...this.folderCache.keys()]) {
        const dir = key.slice(key.indexOf('\u0000') + 1);
        if (isInside(dir, c.path) || isInside(c.path, dir)) this.folderCache.delete(key);
      }
      if (path.basename(c.path) === SKILL_FILE) {
        if (c.deleted) {
          this.diskSkillFiles.delete(c.path);
          if (!this.openDocumentAt(c.path)) this.clear(pathToUri(c.path));
        } else {
          this.diskSkillFiles.add(c.path);
        }
      } else if (!c.deleted) {
        // A folder created with its files inside may be reported as the folder alone (file watchers coalesce
        // events): look for the skill files it brought, in the folder itself (a skill) or one level down (a
        // skills folder).
        for (const f of this.skillFilesUnder(c.path)) {
          this.diskSkillFiles.add(f);
          affected.add(f);
        }
      }
      for (const skillFile of this.knownSkillFiles()) {
        const dir = path.dirname(skillFile);
        if (isInside(dir, c.path)) affected.add(skillFile);
        else if (c.deleted && isInside(c.path, skillFile)) {
          this.diskSkillFiles.delete(skillFile);
          if (!this.openDocumentAt(skillFile)) this.clear(pathToUri(skillFile));
        }
      }
    }
    for (const f of affected) {
      if (this.diskSkillFiles.has(f) || this.openDocumentAt(f)) {
        const doc = this.openDocumentAt(f);
        if (doc) this.cache.delete(doc.uri);
        void this.validateFile(f, doc?.uri);
      }
    }
  }

  /** SKILL.md files in a newly created folder or in its direct sub-folders; none when the path is not a folder. */
  private skillFilesUnder(dir: string): string[] {
    if (this.fsys.kind(dir) !== 'directory') return [];
    const found: string[] = [];
    const own = path.join(dir, SKILL_FILE);
    if (this.fsys.kind(own) === 'file') found.push(own);
    for (const e of listDirSync(this.fsys, dir)) {
      if (e.kind !== 'directory') continue;
      const f = path.join(dir, e.name, SKILL_FILE);
      if (this.fsys.kind(f) === 'file') found.push(f);
    }
    return found;
  }

  revalidateAll(): void {
    this.cache.clear();
    this.places.clear();
    this.folderCache.clear();
    this.configs.clear();
    this.reportedConfigProblems.clear();
    this.files.clear();
    for (const f of this.knownSkillFiles()) void this.validateFile(f, this.openDocumentAt(f)?.uri);
    for (const doc of this.documents.all()) if (!uriToPath(doc.uri)) void this.validateOpen(doc);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private knownSkillFiles(): string[] {
    const all = new Set(this.diskSkillFiles);
    for (const doc of this.documents.all()) {
      // An open plugin.json or trigger set is not a SKILL.md (it was once revalidated as one on a file change).
      if (isJsonDocumentUri(doc.uri)) continue;
      const p = uriToPath(doc.uri);
      if (p) all.add(p);
    }
    return [...all];
  }

  private openDocumentAt(p: string): TextDocument | undefined {
    return this.documents.all().find((d) => uriToPath(d.uri) === p);
  }

  private cancelTimer(uri: string): void {
    const t = this.timers.get(uri);
    if (t) clearTimeout(t);
    this.timers.delete(uri);
  }

  /** Publishes a skill's findings, with the catalog's, and again those of the skills whose catalog findings it changed. */
  private publish(a: SkillAnalysis): void {
    this.lastPublished.set(a.uri, a);
    this.confusable.update(a);
    const others = this.confusable.refresh(this.settings.mode, this.settings.rules, a.uri);
    this.send(a);
    for (const uri of others) {
      const other = this.lastPublished.get(uri);
      if (other) this.send(other);
    }
  }

  private send(a: SkillAnalysis): void {
    const catalog = this.confusable.findingsOf(a.uri);
    const byUri = this.diagnosticsOf(catalog.length ? { ...a, problems: [...a.problems, ...catalog] } : a);
    const previous = this.published.get(a.uri) ?? new Set<string>();
    for (const [uri, diagnostics] of byUri) {
      this.connection.sendDiagnostics({ uri, version: uri === a.uri && a.version !== null ? a.version : undefined, diagnostics });
    }
    for (const uri of previous) if (!byUri.has(uri)) this.connection.sendDiagnostics({ uri, diagnostics: [] });
    this.published.set(a.uri, new Set(byUri.keys()));
  }

  private clear(uri: string): void {
    this.lastPublished.delete(uri);
    this.confusable.remove(uri);
    for (const other of this.confusable.refresh(this.settings.mode, this.settings.rules, uri)) {
      const o = this.lastPublished.get(other);
      if (o) this.send(o);
    }
    const previous = this.published.get(uri) ?? new Set([uri]);
    previous.add(uri);
    for (const u of previous) this.connection.sendDiagnostics({ uri: u, diagnostics: [] });
    this.published.delete(uri);
  }
}
