import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { AuditLog } from '../../core/audit';
import { createAgentSkills } from '../../core/agentSkills';
import { skillPacks } from '../../core/sourceReaders';
import type { CatalogAuditOptions, SkillCatalog } from '../../core/catalog';
import type { ToolResult } from '../../core/tools/toolResult';
import { printableLines } from '../terminalText';
import { UsageError } from '../usageError';
import { cliSources } from '../cliSources';
import { cliStateDir } from './session';

/** Options every catalog command accepts: where skills and the revision state live. */
export const CATALOG_OPTIONS = {
  root: { type: 'string', multiple: true, default: [] },
  pack: { type: 'string', multiple: true, default: [] },
  'state-dir': { type: 'string' },
  'no-defaults': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

/** Usage text of {@link CATALOG_OPTIONS}. */
export const CATALOG_USAGE = '[--root [scope:]<dir>]... [--pack <archive|url>]... [--state-dir <dir>] [--no-defaults] [--json]';

/** Help rows of {@link CATALOG_OPTIONS}. */
export const CATALOG_HELP: readonly (readonly [string, string])[] = [
  ['--root [scope:]<dir>', 'Another folder of skills (repeatable).'],
  ['--pack <archive|url>', 'A skill pack to include (repeatable).'],
  ['--state-dir <dir>', 'The runtime state folder (revisions, sessions); default: the user state folder.'],
  ['--no-defaults', 'Skip the default roots (current folder and home skill folders).'],
  ['--json', 'Print JSON.'],
];

/** parseArgs with the catalog options plus `extra`; bad arguments become UsageError. */
export function parseCatalogArgs<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], extra: O) {
  try {
    return parseArgs({ args, options: { ...CATALOG_OPTIONS, ...extra }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/**
 * The catalog the CLI works on: the current folder as the workspace, the home folder's skill folders, any
 * `--root`s and `--pack`s. Revisions, overlays and the pack cache live in the CLI's state folder (`--state-dir`,
 * else $AGENT_SKILLS_STATE_DIR, else ~/.agent-skills), beside the sessions and the audit log of `run`.
 */
export async function openCliCatalog(command: string, values: { root: string[]; pack: string[]; 'state-dir'?: string; 'no-defaults': boolean }): Promise<SkillCatalog> {
  const stateDir = cliStateDir(values['state-dir']);
  const { roots } = cliSources(command, { roots: values.root, noDefaults: values['no-defaults'], stateDir, others: { flag: '--pack <archive>', count: values.pack.length } });
  return createAgentSkills({ roots, stateDir, sources: [skillPacks(values.pack.map((source) => ({ source })))] }).catalog();
}

/** Audit options for catalog commands: one line per call in `<state folder>/audit.jsonl`, session `cli`. */
export function cliAudit(values: { 'state-dir'?: string }): CatalogAuditOptions {
  return { audit: new AuditLog({ file: path.join(cliStateDir(values['state-dir']), 'audit.jsonl') }), sessionId: 'cli' };
}

/** Reads a file argument, or stdin for `-`. */
export async function readInputFile(arg: string): Promise<string> {
  if (arg !== '-') return fs.readFile(path.resolve(arg), 'utf8');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A tool result as the catalog commands' `--json` prints it: the result's fields flat beside `ok: true`, or
 * `{ ok: false, error }` (the shape scripts have read since the first release; the tool's name is left out).
 */
export function cliJson<T>(r: ToolResult<T>): Record<string, unknown> {
  return r.ok ? { ok: true, ...(r.result as object) } : { ok: false, error: r.error };
}

/** Prints a tool result (JSON, or `human` for success) and returns the exit code: 0 ok, 1 failure. */
export function report<T>(r: ToolResult<T>, json: boolean, human: (result: T) => string): number {
  if (json) {
    process.stdout.write(`${JSON.stringify(cliJson(r), null, 2)}\n`);
    return r.ok ? 0 : 1;
  }
  if (!r.ok) {
    process.stderr.write(`${printableLines(r.error.message)}\n`);
    return 1;
  }
  process.stdout.write(printableLines(human(r.result)));
  return 0;
}

/** Exactly `n` positionals, else a usage error naming what is missing. */
export function positionals(list: string[], names: string[], optional = 0): string[] {
  if (list.length < names.length - optional) throw new UsageError(`missing ${names.slice(list.length).map((n) => `<${n}>`).join(' ')}.`);
  if (list.length > names.length) throw new UsageError(`unexpected argument '${list[names.length]}'.`);
  return list;
}
