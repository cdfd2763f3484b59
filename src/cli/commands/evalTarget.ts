// What `agent-skills eval` judges: the skill (a name in the discovered catalog, or a path to a skill folder, added
// to the catalog when it is not in it) and its trigger set, read and checked with the language server's checks.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkTriggerQueries, MAX_TRIGGER_FILE_CHARS, positionOf, TRIGGER_QUERIES_FILE, type TriggerFinding } from '../../core/evals';
import type { JudgedQuery } from '../../core/evals/judge/offlineJudge';
import type { IndexedSkill } from '../../core/index/catalogIndex';
import type { SkillRecord } from '../../core/registry';
import { suggestNames } from '../../core/registry/suggestNames';
import { realPathOr } from '../../core/os/realPathOr';
import { UsageError } from '../usageError';
import { skillsAt } from './prompt';

/** The skill under test and the catalog it is judged in. */
export interface EvalSkill {
  id: string;
  name: string;
  /** Absolute SKILL.md, when the skill is on disk. */
  location?: string;
  /** A note for stderr (e.g. the path's skill replaced a catalog skill of the same name). */
  note?: string;
}

/** An error that is the user's input, not a bug: printed as is, exit 2 (`validate`'s convention for a bad path). */
export class EvalInputError extends Error {}

function samePath(a: string, b: string): boolean {
  return realPathOr(a) === realPathOr(b);
}

/** `arg` names a path rather than a skill name: it has a separator or a leading dot, or only a folder matches it. */
function looksLikePath(arg: string): boolean {
  return /[\\/]/.test(arg) || arg.startsWith('.');
}

/**
 * Finds the skill `arg` in `catalog` (by name), or reads the skill folder `arg` and puts it in `catalog` (replacing
 * a skill of the same name, which it stands for in this run). Throws EvalInputError with close names when neither.
 */
export async function resolveEvalSkill(arg: string, catalog: Map<string, IndexedSkill>, unusable: readonly Pick<SkillRecord, 'id' | 'name' | 'status' | 'location' | 'diagnostics'>[] = []): Promise<EvalSkill> {
  const byName = [...catalog.values()].filter((s) => s.name === arg);
  if (!looksLikePath(arg) && byName.length) {
    const s = byName[0];
    const note = byName.length > 1 ? `${byName.length} skills are named "${arg}" (${byName.map((b) => b.id).join(', ')}); judging ${s.id}. Give its folder's path to judge another.` : undefined;
    return { id: s.id, name: s.name, ...(s.location ? { location: s.location } : {}), ...(note ? { note } : {}) };
  }
  const exists = fs.statSync(arg, { throwIfNoEntry: false }) !== undefined;
  const held = exists ? undefined : unusable.find((r) => r.name === arg && r.status !== 'ok');
  if (held) {
    const first = held.diagnostics.find((d) => d.severity === 'error')?.message;
    throw new EvalInputError(
      held.status === 'broken'
        ? `"${arg}" (${held.location}) cannot load${first ? `: ${first}` : ''}. Fix it (\`agent-skills validate ${path.dirname(held.location)}\`), then run eval again.`
        : `"${arg}" is ${held.status} (${held.id}): another skill of that name is ${held.status === 'shadowed' ? 'used instead' : 'in the same scope'}. Give the path of the folder you mean.`,
    );
  }
  if (!exists) {
    const near = suggestNames(arg, [...catalog.values()].map((s) => s.name));
    throw new EvalInputError(
      `no skill named "${arg}" among the ${catalog.size} discovered skill(s), and no folder ${arg}.${near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(', ')}?` : ''} Give a skill's name (see \`agent-skills list\` with the same options) or the path of its folder.`,
    );
  }
  let read;
  try {
    read = await skillsAt([arg]);
  } catch (e) {
    if (e instanceof UsageError) throw new EvalInputError(e.message);
    throw e;
  }
  if (read.failed) throw new EvalInputError(`${arg}: the skill cannot load (its problems are above). Fix its SKILL.md, then run eval again.`);
  if (read.skills.length !== 1) throw new EvalInputError(`${arg} holds ${read.skills.length} skills; give the folder of one of them.`);
  const s = read.skills[0];
  const location = s.location as string;
  const same = [...catalog.values()].find((c) => c.location && samePath(c.location, location));
  if (same) return { id: same.id, name: same.name, location: same.location };
  const id = `path:${location}`;
  const shadowed = [...catalog.values()].filter((c) => c.name === s.name);
  for (const c of shadowed) catalog.delete(c.id);
  catalog.set(id, { id, name: s.name, description: s.description, location });
  const note = shadowed.length ? `${arg} stands in for ${shadowed.map((c) => c.id).join(', ')} (same name "${s.name}") in this run.` : undefined;
  return { id, name: s.name, location, ...(note ? { note } : {}) };
}

/** The trigger set as read: the requests to judge (with their lines), the file's warnings, and its text. */
export interface EvalTriggerSet {
  file: string;
  text: string;
  queries: JudgedQuery[];
  /** Offsets of `queries` in `text`. */
  offsets: number[];
  warnings: TriggerFinding[];
}

/** How a finding is shown on stderr: `file:line:col: severity: message [rule]`. */
export function findingLine(file: string, text: string, f: TriggerFinding): string {
  const at = positionOf(text, f.offset);
  return `${file}:${at.line + 1}:${at.character + 1}: ${f.severity}: ${f.message} [${f.rule}]`;
}

/**
 * Reads and checks the trigger file: `file` when given, else `<skill folder>/evals/trigger-queries.json`. A missing
 * file, one too large, or one with errors is an EvalInputError saying where it looked and what to do.
 */
export function readTriggerSet(skill: EvalSkill, file: string | undefined): EvalTriggerSet {
  if (file === undefined && !skill.location) throw new EvalInputError(`"${skill.name}" (${skill.id}) has no folder on this machine (an MCP server serves it): give its trigger set with --file <file>.`);
  const abs = path.resolve(file ?? path.join(path.dirname(skill.location as string), TRIGGER_QUERIES_FILE));
  const st = fs.statSync(abs, { throwIfNoEntry: false });
  if (!st) {
    throw new EvalInputError(
      `no trigger file at ${abs}. Create ${file === undefined ? TRIGGER_QUERIES_FILE + ' in the skill folder' : 'it'}: a JSON array of { "query": "<a request as a user would type it>", "should_trigger": true } entries, about twenty, with near misses as "should_trigger": false (README, "Trigger tests")${file === undefined ? ', or give another file with --file <file>' : ''}.`,
    );
  }
  if (!st.isFile()) throw new EvalInputError(`${abs} is not a regular file. Give the path of a trigger file (a JSON array of requests).`);
  // Four bytes a character at most: a larger file cannot be within the checked size, so it is not read.
  if (st.size > MAX_TRIGGER_FILE_CHARS * 4) throw new EvalInputError(`${abs} is ${st.size} bytes, over the ${MAX_TRIGGER_FILE_CHARS} characters read: keep a trigger set to the requests that test the description (about twenty).`);
  const text = fs.readFileSync(abs, 'utf8');
  const check = checkTriggerQueries(text, { skill: skill.name, file: path.basename(abs) });
  const errors = check.findings.filter((f) => f.severity === 'error');
  if (errors.length) throw new EvalInputError(`${abs} cannot be judged; fix it first:\n${errors.map((f) => `  ${findingLine(abs, text, f)}`).join('\n')}`);
  // Offsets rise through the file: lines are counted in one pass (not from the top for each request).
  let line = 1;
  let next = text.indexOf('\n');
  const queries = check.queries.map((q, i) => {
    for (; next >= 0 && next < check.offsets[i]; next = text.indexOf('\n', next + 1)) line++;
    return { ...q, line };
  });
  return { file: abs, text, queries, offsets: check.offsets, warnings: check.findings.filter((f) => f.severity !== 'error') };
}
