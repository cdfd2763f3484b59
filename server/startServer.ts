import {
  CodeActionKind,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  ResponseError,
  ErrorCodes,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeActionParams,
  type CompletionParams,
  type Connection,
  type DefinitionParams,
  type HoverParams,
  type InitializeParams,
  type InitializeResult,
  type PrepareRenameParams,
  type RenameParams,
} from 'vscode-languageserver';
import * as path from 'node:path';
import { isPluginDocumentUri, PluginDocuments } from './pluginDocuments';
import { EvalsDocuments, isEvalsDocumentUri } from './evalsDocuments';
import { isTriggerDocumentUri, TriggerDocuments } from './triggerDocuments';
import { isJsonDocumentUri } from './documentKinds';
import { renameFolderAction } from './services/renameFolderAction';
import { Inbox } from './inbox';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { SkillsHost, SyncSkillsHost } from '../src/core/host/skillsHost';
import { asyncLocalDisk } from '../src/core/host/localDisk';
import { nodeFileSystem } from './fileSystem';
import { SETTINGS_SECTION, SKILL_FILE_WATCH_GLOB, ValidateRequest, WorkspaceScannedNotification } from './protocol';
import { codeActions } from './services/codeActions';
import { complete } from './services/completion';
import { hover } from './services/hover';
import { definition, documentLinks } from './services/links';
import { badNewName, prepareRename, renameSkill } from './services/rename';
import { documentSymbols, foldingRanges } from './services/symbols';
import { findSkillFiles } from './services/workspaceScan';
import { DEFAULT_SETTINGS, settingsFromInitOptions, settingsFromSection } from './serverSettings';
import type { SkillAnalysis } from './skillAnalysis';
import { SkillWorkspace } from './skillWorkspace';
import { uriToPath } from './uris';

/** What the server takes from its host; tests and the entry point pass real implementations. */
export interface ServerDeps {
  /** Synchronous reads for completion, hover and links (one small file or folder per call). */
  fs: SyncSkillsHost;
  /** The core validator's file access. */
  host: SkillsHost;
  /** The connection's message strategy, to wait for the messages already received (none: two turns of the event loop). */
  inbox?: Inbox;
}

export const defaultDeps: ServerDeps = { fs: nodeFileSystem, host: asyncLocalDisk };

/**
 * Wires every LSP handler of the SKILL.md language server onto `connection` and starts listening.
 * All state lives in this call's closure (a SkillWorkspace); nothing is global.
 */
export function startServer(connection: Connection, deps: ServerDeps = defaultDeps): void {
  const documents = new TextDocuments(TextDocument);
  const inbox = deps.inbox ?? new Inbox();
  const ws = new SkillWorkspace(connection, documents, deps.fs, deps.host, DEFAULT_SETTINGS, () => inbox.quiet());
  let roots: string[] = [];
  let canPullConfig = false;
  let canRegisterWatchers = false;
  let canRenameFiles = false;

  /** Runs a handler; a thrown error is logged and turned into `fallback`, never a dead server. */
  function guard<A extends unknown[], R>(name: string, fallback: R, fn: (...args: A) => R): (...args: A) => R {
    return (...args: A) => {
      try {
        return fn(...args);
      } catch (e) {
        connection.console.error(`agent-skills: ${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        return fallback;
      }
    };
  }

  connection.onInitialize(
    guard('initialize', { capabilities: {} }, (params: InitializeParams): InitializeResult => {
      const r = settingsFromInitOptions(DEFAULT_SETTINGS, params.initializationOptions);
      ws.settings = r.settings;
      for (const p of r.problems) connection.console.warn(p);
      const folders = params.workspaceFolders ?? (params.rootUri ? [{ uri: params.rootUri, name: 'root' }] : []);
      roots = folders.map((f) => uriToPath(f.uri)).filter((p): p is string => p !== undefined);
      canPullConfig = params.capabilities.workspace?.configuration === true;
      canRegisterWatchers = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
      const we = params.capabilities.workspace?.workspaceEdit;
      canRenameFiles = we?.documentChanges === true && (we.resourceOperations ?? []).includes('rename');
      return {
        capabilities: {
          textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
          completionProvider: { triggerCharacters: ['/', '(', '`', ':', ' ', '-'] },
          hoverProvider: true,
          definitionProvider: true,
          documentLinkProvider: { resolveProvider: false },
          codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
          documentSymbolProvider: true,
          foldingRangeProvider: true,
          renameProvider: { prepareProvider: true },
        },
        serverInfo: { name: 'agent-skills-language-server', version: '0.1.0' },
      };
    }),
  );

  connection.onInitialized(async () => {
    try {
      if (canRegisterWatchers) {
        await connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: SKILL_FILE_WATCH_GLOB }] });
      }
      if (canPullConfig) await pullSettings();
      if (ws.settings.scanWorkspace) {
        const files = await findSkillFiles(deps.fs, roots);
        // One skill at a time, so a big workspace does not flood the event loop or the file system.
        for (const f of files) await ws.validateFile(f);
        connection.sendNotification(WorkspaceScannedNotification, { skillFiles: files });
      }
    } catch (e) {
      connection.console.error(`agent-skills: start-up failed: ${String(e)}`);
    }
  });

  async function pullSettings(): Promise<void> {
    const section: unknown = await connection.workspace.getConfiguration(SETTINGS_SECTION);
    const r = settingsFromSection(ws.settings, section);
    for (const p of r.problems) connection.console.warn(p);
    ws.settings = r.settings;
  }

  connection.onDidChangeConfiguration(async (change) => {
    try {
      if (canPullConfig) await pullSettings();
      else {
        const raw = (change.settings as Record<string, unknown> | null | undefined)?.[SETTINGS_SECTION];
        const r = settingsFromSection(ws.settings, raw);
        for (const p of r.problems) connection.console.warn(p);
        ws.settings = r.settings;
      }
      ws.revalidateAll();
    } catch (e) {
      connection.console.error(`agent-skills: configuration change failed: ${String(e)}`);
    }
  });

  // plugin.json / mcp.json of Agent Plugins get the plugin checks, a skill's evals/trigger-queries.json the trigger-set
  // checks, its evals/evals.json the eval-set checks; everything else is a SKILL.md.
  const plugins = new PluginDocuments(connection);
  const openText = (file: string) => documents.all().find((d) => uriToPath(d.uri) === file)?.getText();
  const triggers = new TriggerDocuments(connection, deps.fs, openText);
  const evalSets = new EvalsDocuments(connection, deps.fs, openText);
  /** The checks, completion and hover of a skill's evals file (trigger set or eval set), when the URI is one. */
  const evalsFileOf = (uri: string) => (isTriggerDocumentUri(uri) ? triggers : isEvalsDocumentUri(uri) ? evalSets : undefined);
  const validateDoc = (doc: TextDocument, skill: () => void) => {
    const evalsFile = evalsFileOf(doc.uri);
    if (evalsFile) evalsFile.validate(doc);
    else if (isPluginDocumentUri(doc.uri)) plugins.validate(doc);
    else skill();
  };
  documents.onDidOpen(guard('didOpen', undefined, (e) => validateDoc(e.document, () => void ws.validateOpen(e.document))));
  documents.onDidChangeContent(guard('didChange', undefined, (e) => validateDoc(e.document, () => ws.scheduleValidation(e.document))));
  documents.onDidClose(
    guard('didClose', undefined, (e) => {
      const evalsFile = evalsFileOf(e.document.uri);
      if (evalsFile) evalsFile.closed(e.document.uri);
      else if (isPluginDocumentUri(e.document.uri)) plugins.closed(e.document.uri);
      else ws.closed(e.document.uri);
    }),
  );

  connection.onDidChangeWatchedFiles(
    guard('didChangeWatchedFiles', undefined, (params) => {
      const changes = params.changes
        .map((c) => ({ path: uriToPath(c.uri), deleted: c.type === FileChangeType.Deleted }))
        .filter((c): c is { path: string; deleted: boolean } => c.path !== undefined);
      ws.filesChanged(changes);
      // An eval set names input files of its skill: one added or removed changes its findings.
      for (const doc of documents.all()) if (isEvalsDocumentUri(doc.uri)) evalSets.validate(doc);
    }),
  );

  /**
   * Runs a request against the document's read text (parsed, with the problems once its validation is done: a
   * request never waits for the rules); errors are logged and answered with `fallback`.
   */
  function onAnalysis<P extends { textDocument: { uri: string } }, R>(name: string, fallback: R, fn: (a: SkillAnalysis, p: P) => R): (p: P) => Promise<R> {
    return async (p: P) => {
      try {
        if (isJsonDocumentUri(p.textDocument.uri)) return fallback;
        const a = await ws.readOf(p.textDocument.uri);
        return a ? fn(a, p) : fallback;
      } catch (e) {
        connection.console.error(`agent-skills: ${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        return fallback;
      }
    };
  }

  const skillCompletion = onAnalysis('completion', [], (a, p: CompletionParams) => complete(a, p.position, deps.fs));
  const skillHover = onAnalysis('hover', null, (a, p: HoverParams) => hover(a, p.position, deps.fs, { languageId: documents.get(p.textDocument.uri)?.languageId, builtinFieldHover: ws.settings.builtinFieldHover }) ?? null);
  /** The open evals file (trigger set or eval set) a request is about, with its features, if it is one. */
  const evalsDoc = (uri: string) => {
    const features = evalsFileOf(uri);
    const doc = features && documents.get(uri);
    return doc && features ? { doc, features } : undefined;
  };
  connection.onCompletion((p: CompletionParams) => {
    const e = evalsDoc(p.textDocument.uri);
    return e ? guard('completion', [], () => e.features.complete(e.doc, p.position))() : skillCompletion(p);
  });
  connection.onHover((p: HoverParams) => {
    const e = evalsDoc(p.textDocument.uri);
    return e ? guard('hover', null, () => e.features.hover(e.doc, p.position))() : skillHover(p);
  });
  connection.onDefinition(onAnalysis('definition', null, (a, p: DefinitionParams) => definition(a, p.position, deps.fs) ?? null));
  connection.onDocumentLinks(onAnalysis('documentLink', [], (a) => documentLinks(a, deps.fs)));
  connection.onCodeAction(async (p: CodeActionParams) => {
    try {
      if (isJsonDocumentUri(p.textDocument.uri)) return [];
      const a = await ws.analysisOf(p.textDocument.uri);
      if (!a) return [];
      const actions = codeActions(a, p.range, p.context.diagnostics);
      // The folder-mismatch fix the other way round: rename the folder to the name, with every link and mention
      // across the workspace, as one WorkspaceEdit (what F2 on `name` does).
      const folderFix = await renameFolderAction(a, p.range, p.context.diagnostics, (name) => {
        const openText = (file: string) => documents.all().find((d) => uriToPath(d.uri) === file)?.getText();
        return { fsys: deps.fs, roots, canRenameFiles, openText, name };
      });
      return folderFix ? [...actions, folderFix] : actions;
    } catch (e) {
      connection.console.error(`agent-skills: codeAction failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return [];
    }
  });
  connection.onPrepareRename(onAnalysis('prepareRename', null, (a, p: PrepareRenameParams) => prepareRename(a, p.position) ?? null));
  connection.onRenameRequest(async (p: RenameParams) => {
    const bad = badNewName(p.newName);
    if (bad) throw new ResponseError(ErrorCodes.InvalidParams, bad);
    if (isJsonDocumentUri(p.textDocument.uri)) return null;
    const a = await ws.analysisOf(p.textDocument.uri);
    if (!a?.skillDir) return null;
    const target = path.join(path.dirname(a.skillDir), p.newName);
    if (path.basename(a.skillDir) !== p.newName && deps.fs.kind(target)) {
      throw new ResponseError(ErrorCodes.InvalidParams, `${target} already exists; the skill folder cannot be renamed to '${p.newName}'. Choose another name or move that folder first.`);
    }
    const openText = (file: string) => documents.all().find((d) => uriToPath(d.uri) === file)?.getText();
    return (await renameSkill(a, p.position, p.newName, { fsys: deps.fs, roots, canRenameFiles, openText })) ?? null;
  });
  connection.onDocumentSymbol(onAnalysis('documentSymbol', [], (a) => documentSymbols(a)));
  connection.onFoldingRanges(onAnalysis('foldingRange', [], (a) => foldingRanges(a)));
  connection.onRequest(ValidateRequest, async (p: { uri: string }) => {
    try {
      const a = await ws.analysisOf(p.uri);
      return { uri: p.uri, diagnostics: a ? (ws.diagnosticsOf(a).get(p.uri) ?? []) : [] };
    } catch (e) {
      connection.console.error(`agent-skills: skills/validate failed: ${String(e)}`);
      return { uri: p.uri, diagnostics: [] };
    }
  });

  connection.onShutdown(() => ws.dispose());
  documents.listen(connection);
  connection.listen();
}
