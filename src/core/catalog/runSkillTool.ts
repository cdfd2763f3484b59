import { contentWithLineNumbers } from '../edit/lineDiff';
import { parseSkillFile } from '../skill/parseSkillFile';
import { audited, type AuditSink } from './catalogAudit';
import { ToolError } from '../tools/toolError';
import { chunkAt, isText, type ContentChunk } from './chunking';
import type { CatalogFile, SkillCatalog } from './skillCatalog';
import { substituteArguments, type ResolvedArguments } from './skillArguments';
import { runSkillInputSchema, type RunSkillInput } from './catalogToolInputs';
import { CATALOG_TOOLS } from '../tools/toolNames';
import { settle, type ToolResult } from '../tools/toolResult';
import type { CatalogCall, CatalogEntry, SessionLoader } from './catalogTypes';
import { rememberContent, summarize, type RevisionSummary } from './writeSkillFile';

/** Options of the runSkill tool. */
export interface RunSkillOptions {
  /** Files larger than this (bytes) are returned in explicit parts. Default 256 KiB. */
  chunkBytes?: number;
  sessions?: SessionLoader;
  /** Appends one audit line per call (inspect reads a skill's files, run activates it). */
  audit?: AuditSink;
}

/** A compact catalog entry (list). */
export interface CatalogListEntry {
  id: string;
  name: string;
  description: string;
  source: CatalogEntry['source'];
  origin?: string;
  status: CatalogEntry['status'];
  readOnlySource: boolean;
  modelInvocationAllowed: boolean;
  versionRef: string;
  active?: boolean;
}

export interface ListResult {
  action: 'list';
  skills: CatalogListEntry[];
  /** Matches in total; more than `skills.length` when the limit cut the list (say so to the user, or narrow the query). */
  total: number;
  more: number;
  /** Problems of the catalog's own state the user should hear about (a hidden list that cannot be read). */
  warnings?: string[];
}

export interface InspectResult {
  action: 'inspect';
  skill: Omit<CatalogListEntry, 'active'> & { properties: Record<string, unknown>; diagnostics: CatalogEntry['diagnostics']; location: string; skillDir: string; fromOverlay: boolean };
  file: string;
  /** Ref of this file: pass it as updateSkill's expectedVersionRef. */
  versionRef: string;
  size: number;
  encoding: 'utf8' | 'base64';
  /** The whole file (when it fits in one part). */
  content?: string;
  contentWithLineNumbers?: string;
  /** One part of a large file: call again with `offset: chunk.nextOffset` until it is null. */
  chunk?: ContentChunk;
  files: CatalogFile[];
  history?: RevisionSummary[];
  warnings: string[];
}

export type RunResult =
  | {
      action: 'run';
      status: 'ready';
      skill: CatalogListEntry;
      /** True when the skill was loaded into the session. */
      loaded: boolean;
      /** The full instructions (SKILL.md body) with arguments substituted. */
      instructions: string;
      parameters: ResolvedArguments;
      /** Every file of the skill (read them with runSkill inspect, file: …). */
      files: string[];
      skillDir: string;
    }
  | { action: 'run'; status: 'blocked'; skill: CatalogListEntry; reason: string };

function compact(e: CatalogEntry, active?: Set<string>): CatalogListEntry {
  return {
    id: e.id,
    name: e.name,
    description: e.description,
    source: e.source,
    ...(e.origin ? { origin: e.origin } : {}),
    status: e.status,
    readOnlySource: !e.writableAtSource,
    modelInvocationAllowed: e.modelInvocationAllowed,
    versionRef: e.versionRef,
    ...(active ? { active: active.has(e.id) || active.has(e.name) } : {}),
  };
}

async function list(catalog: SkillCatalog, input: RunSkillInput, call: CatalogCall, opts: RunSkillOptions): Promise<ListResult> {
  let active: Set<string> | undefined;
  if (input.activeOnly || (call.sessionId && opts.sessions?.activeSkills)) {
    if (input.activeOnly && (!call.sessionId || !opts.sessions?.activeSkills)) {
      throw new ToolError('invalid_input', 'activeOnly needs a chat session with loaded skills; this host has none. Call list without activeOnly.');
    }
    active = new Set(await opts.sessions!.activeSkills!(call.sessionId!));
  }
  const words = (input.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const matches = catalog
    .entries()
    .filter((e) => e.status !== 'broken')
    .filter((e) => !input.source || e.source === input.source)
    .filter((e) => words.every((w) => e.name.toLowerCase().includes(w) || e.description.toLowerCase().includes(w) || e.id.toLowerCase().includes(w)))
    .filter((e) => !input.activeOnly || active!.has(e.id) || active!.has(e.name));
  const limit = input.limit ?? 50;
  const warnings = catalog.hiddenProblem ? [catalog.hiddenProblem] : undefined;
  return { action: 'list', skills: matches.slice(0, limit).map((e) => compact(e, active)), total: matches.length, more: Math.max(0, matches.length - limit), ...(warnings ? { warnings } : {}) };
}

async function inspect(catalog: SkillCatalog, input: RunSkillInput, opts: RunSkillOptions): Promise<InspectResult> {
  const entry = catalog.resolve(input.skill!);
  const fileName = input.file ?? 'SKILL.md';
  const found = await catalog.readFile(entry, fileName);
  const files = await catalog.files(entry);
  if (!found) {
    throw new ToolError('not_found', `${entry.id} has no file '${fileName}'. Its files: ${files.map((f) => f.path).join(', ')}.`, 'Pass one of the files listed in details.files.', { files: files.map((f) => f.path) });
  }
  const limit = opts.chunkBytes ?? 256 * 1024;
  const view = input.view ?? 'both';
  const text = isText(found.content);
  if (text) rememberContent(found.ref, found.content.toString('utf8'));
  const warnings: string[] = [];
  if (!entry.writableAtSource && found.origin === 'overlay' && (await catalog.overlayOf(entry).sourceChangedSinceSeed(found.path))) {
    warnings.push(`The ${entry.source} source of ${found.path} changed since it was first edited here; this is the edited (overlay) version. Compare with the history and re-apply your edits if needed.`);
  }
  const { record: _record, ...meta } = entry;
  void _record;
  const result: InspectResult = {
    action: 'inspect',
    skill: { ...compact(entry), properties: meta.properties, diagnostics: meta.diagnostics, location: meta.location, skillDir: meta.skillDir, fromOverlay: meta.fromOverlay },
    file: found.path,
    versionRef: found.ref,
    size: found.content.length,
    encoding: text ? 'utf8' : 'base64',
    files,
    warnings,
  };
  if (input.offset === undefined && found.content.length <= limit) {
    const body = text ? found.content.toString('utf8') : found.content.toString('base64');
    if (view !== 'numbered' || !text) result.content = body;
    if (view !== 'raw' && text) result.contentWithLineNumbers = contentWithLineNumbers(body);
  } else {
    const chunk = chunkAt(found.content, input.offset ?? 0, limit, { numbered: view !== 'raw' });
    if (view === 'numbered' && chunk.encoding === 'utf8') chunk.text = '';
    result.chunk = chunk;
    warnings.push(
      `${found.path} is ${found.content.length} bytes, so it comes in ${chunk.parts} parts; this is part ${chunk.part} of ${chunk.parts} (bytes ${chunk.offset}-${chunk.offset + chunk.length - 1}). ` +
        (chunk.nextOffset === null ? 'This is the last part.' : `Call runSkill inspect again with offset: ${chunk.nextOffset} for the next part.`),
    );
  }
  if (input.history) result.history = (await catalog.history(entry)).map(summarize);
  return result;
}

async function run(catalog: SkillCatalog, input: RunSkillInput, call: CatalogCall, opts: RunSkillOptions): Promise<RunResult> {
  const entry = catalog.resolve(input.skill!);
  if (!entry.modelInvocationAllowed) {
    return {
      action: 'run',
      status: 'blocked',
      skill: compact(entry),
      reason: `${entry.id} sets \`disable-model-invocation: true\` in its frontmatter: only the user may invoke it (for example as /${entry.name}). Tell the user, and do not work around it.`,
    };
  }
  const skillMd = await catalog.readFile(entry, 'SKILL.md');
  if (!skillMd) throw new ToolError('not_found', `${entry.id} has no SKILL.md any more (${entry.location}). Call runSkill list to refresh.`);
  const parsed = parseSkillFile(skillMd.content.toString('utf8'));
  const { text, resolved } = substituteArguments(parsed.body.replace(/^(\r?\n)+/, ''), input.arguments);
  let loaded = false;
  if (call.sessionId && opts.sessions) {
    await opts.sessions.loadIntoSession(call.sessionId, entry.id);
    loaded = true;
  }
  return {
    action: 'run',
    status: 'ready',
    skill: compact(entry),
    loaded,
    instructions: text,
    parameters: resolved,
    files: (await catalog.files(entry)).map((f) => f.path),
    skillDir: entry.skillDir,
  };
}

/** The `runSkill` tool: validates the input with zod, then lists, inspects or runs. Expected errors come back as `{ ok: false, error }`. */
export function invokeRunSkill(catalog: SkillCatalog, rawInput: unknown, call: CatalogCall = {}, opts: RunSkillOptions = {}): Promise<ToolResult<ListResult | InspectResult | RunResult>> {
  return audited(CATALOG_TOOLS.runSkill.name, rawInput, { audit: opts.audit, sessionId: call.sessionId }, () =>
    settle(CATALOG_TOOLS.runSkill.name, async (): Promise<ListResult | InspectResult | RunResult> => {
      const input = runSkillInputSchema.parse(rawInput);
      if (input.action === 'list') return list(catalog, input, call, opts);
      if (input.action === 'inspect') return inspect(catalog, input, opts);
      return run(catalog, input, call, opts);
    }),
  );
}
