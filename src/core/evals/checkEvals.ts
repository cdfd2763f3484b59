// Checks a skill's eval set (`evals/evals.json`): an object { "skill_name": "...", "evals": [ case, ... ] } with the
// fields of evalsFields.ts. What the checks find: JSON that does not parse, a shape other than that, unknown fields,
// a case id given twice, a `skill_name` that is not the skill's name, an empty prompt, and an input file that is not
// inside the skill's folder (the project's one path rule, src/core/paths) or not there. Bounded like the trigger
// set: the same size and depth limits (jsonTree.ts) and at most MAX_EVAL_CASES cases and MAX_EVAL_LIST_ITEMS files
// or assertions per case. The evals are checked, not run.
import { printParseErrorCode, type Node as JsonNode } from 'jsonc-parser/lib/esm/main.js';
import type { SyncSkillsHost } from '../host/skillsHost';
import { checkRelative, resolveInRootOn, type PathRefusal } from '../paths/resolveInRoot';
import { lineOf } from './checkTriggerQueries';
import { EVAL_CASE_FIELDS, EVALS_FILE, EVALS_FILE_FIELDS } from './evalsFields';
import { jsonTypeText } from './jsonFields';
import { MAX_JSON_DEPTH, MAX_JSON_FILE_CHARS, readFields, readJsonTree, type TextSpan } from './jsonTree';

/** The most cases read from one file (the guide starts with two or three). */
export const MAX_EVAL_CASES = 1000;
/** The most input files or assertions read from one case. */
export const MAX_EVAL_LIST_ITEMS = 200;

export interface EvalsFinding {
  rule: 'evals-json' | 'evals-shape' | 'evals-field' | 'evals-duplicate' | 'evals-skill-name' | 'evals-file' | 'evals-size';
  severity: 'error' | 'warning';
  message: string;
  offset: number;
  length: number;
}

/** One case as read (only the well-formed ones). */
export interface EvalCase {
  id: number;
  prompt: string;
  expected_output?: string;
  files: string[];
  assertions: string[];
}

export interface EvalsCheck {
  cases: EvalCase[];
  findings: EvalsFinding[];
}

export interface EvalsCheckOptions {
  /** The skill's name (its SKILL.md's `name`, else its folder's name). */
  skill?: string;
  /** Names the file in messages. */
  file?: string;
  /** The skill's folder and a host to look at it: input files are then resolved and must exist inside it. */
  skillDir?: string;
  host?: Pick<SyncSkillsHost, 'realPath'>;
}

/** Why an input file is refused, and the fix (the decision is the path rule's; the wording is this file's). */
function refusalText(reason: PathRefusal, real?: string): string {
  switch (reason) {
    case 'absolute':
    case 'home':
      return "is absolute; give a path relative to the skill's folder, e.g. evals/files/input.csv";
    case 'outside':
      return "leaves the skill's folder; put the file inside it (e.g. under evals/files/) and give that path";
    case 'link-outside':
      return `resolves through a symbolic link to ${real ?? 'a path'} outside the skill's folder; copy the file into the folder instead`;
    case 'not-found':
    case 'root-missing':
      return "does not exist in the skill's folder; add the file or fix the path (relative to the folder, not to evals/)";
    case 'percent-encoded':
      return 'is percent-encoded; write the path as plain text';
    case 'nul':
      return 'contains a NUL character; write a plain path';
    default:
      return 'is empty; give a path relative to the skill\'s folder';
  }
}

/** Checks the text of an eval set. */
export function checkEvals(text: string, opts: EvalsCheckOptions = {}): EvalsCheck {
  const file = opts.file ?? EVALS_FILE;
  const findings: EvalsFinding[] = [];
  const cases: EvalCase[] = [];
  const add = (rule: EvalsFinding['rule'], severity: EvalsFinding['severity'], at: TextSpan, message: string) =>
    findings.push({ rule, severity, offset: at.offset, length: Math.max(1, at.length), message });
  const whole = { offset: 0, length: Math.min(text.length, 1) };
  const shape = '{ "skill_name": "...", "evals": [{ "id": 1, "prompt": "..." }] }';

  const tree = readJsonTree(text);
  if (tree.kind === 'too-large') {
    add('evals-size', 'error', whole, `${file} is ${text.length} characters, over the ${MAX_JSON_FILE_CHARS} read: it is not checked. Keep large inputs in files under evals/files/ and name them in "files".`);
    return { cases, findings };
  }
  if (tree.kind === 'too-deep') {
    add('evals-shape', 'error', whole, `${file} nests arrays or objects more than ${MAX_JSON_DEPTH} deep: it is not checked. An eval set is ${shape}.`);
    return { cases, findings };
  }
  const { root, errors } = tree;
  for (const e of errors.slice(0, 20)) add('evals-json', 'error', e, `${file} is not valid JSON here (${printParseErrorCode(e.error)}). Fix the JSON: an eval set is ${shape}.`);
  if (!root) return { cases, findings };
  if (root.type !== 'object') {
    add('evals-shape', 'error', root, `${file} must be a JSON object ${shape}; it is ${jsonTypeText(root.type)}.`);
    return { cases, findings };
  }
  const top = readFields(root, EVALS_FILE_FIELDS, file, 'an eval set', (severity, at, message) => add('evals-field', severity, at, message), () => '"evals": [{ "id": 1, "prompt": "<a task as a user would ask it>" }]');
  const name = top.get('skill_name');
  if (name && opts.skill && name.value !== opts.skill) {
    add('evals-skill-name', 'warning', name, `"skill_name" is "${String(name.value)}" but this is the skill "${opts.skill}" (its SKILL.md's name). Write "skill_name": "${opts.skill}".`);
  }
  const items = top.get('evals')?.children ?? [];
  if (items.length > MAX_EVAL_CASES) {
    add('evals-size', 'error', items[MAX_EVAL_CASES], `${file} has ${items.length} evals; only the first ${MAX_EVAL_CASES} are checked. Keep the cases that test what the skill adds.`);
  }
  const ids = new Map<number, JsonNode>();
  for (const [i, item] of items.slice(0, MAX_EVAL_CASES).entries()) {
    const c = checkCase(item, i, file, opts, add);
    if (c.idNode) {
      // A case with another problem still holds its id: a duplicate is said at once, not after the other fix.
      const id = Number(c.idNode.value);
      const first = ids.get(id);
      if (first) add('evals-duplicate', 'error', c.idNode, `Eval ${i + 1}: id ${id} is also the id on line ${lineOf(text, first.offset)}; results are kept per id. Give each case its own id.`);
      else ids.set(id, c.idNode);
    }
    if (c.case) cases.push(c.case);
  }
  return { cases, findings };
}

/** One element of `evals`. Answers its id when well typed, and the case when it is well formed. */
function checkCase(
  item: JsonNode,
  i: number,
  file: string,
  opts: EvalsCheckOptions,
  add: (rule: EvalsFinding['rule'], severity: EvalsFinding['severity'], at: TextSpan, message: string) => void,
): { case?: EvalCase; idNode?: JsonNode } {
  const label = `Eval ${i + 1}`;
  if (item.type !== 'object') {
    add('evals-shape', 'error', item, `${label} of ${file} must be an object { "id": 1, "prompt": "..." }; it is ${jsonTypeText(item.type)}.`);
    return {};
  }
  const values = readFields(item, EVAL_CASE_FIELDS, label, 'an eval', (severity, at, message) => add('evals-field', severity, at, message), (name) =>
    name === 'id' ? `"id": ${i + 1} (a whole number unique in the file)` : '"prompt": "<the task as a user would ask it>"',
  );
  const idNode = values.get('id');
  if (idNode && !Number.isSafeInteger(idNode.value)) {
    add('evals-field', 'error', idNode, `${label}: "id" is ${String(idNode.value)}; it must be a whole number, e.g. ${i + 1}.`);
    values.delete('id');
  }
  const promptNode = values.get('prompt');
  if (promptNode && !String(promptNode.value).trim()) {
    add('evals-field', 'error', promptNode, `${label}: "prompt" is empty. Write the task as a user would ask it.`);
    values.delete('prompt');
  }
  const lists: Record<'files' | 'assertions', string[]> = { files: [], assertions: [] };
  for (const name of ['files', 'assertions'] as const) {
    const list = lists[name];
    const node = values.get(name);
    const entries = node?.children ?? [];
    if (entries.length > MAX_EVAL_LIST_ITEMS) add('evals-size', 'error', entries[MAX_EVAL_LIST_ITEMS], `${label}: "${name}" has ${entries.length} items; only the first ${MAX_EVAL_LIST_ITEMS} are checked.`);
    for (const entry of entries.slice(0, MAX_EVAL_LIST_ITEMS)) {
      if (entry.type !== 'string') continue; // said by readFields
      const value = String(entry.value);
      if (!value.trim()) {
        add('evals-field', 'error', entry, `${label}: an item of "${name}" is empty. ${name === 'files' ? "Give a path relative to the skill's folder" : 'Write a statement the output must satisfy'}, or remove it.`);
        continue;
      }
      if (name === 'files') {
        const why = fileRefusal(value, opts);
        if (why) add('evals-file', 'error', entry, `${label}: input file "${value}" ${why}.`);
      }
      list.push(value);
    }
  }
  const id = values.get('id');
  const prompt = values.get('prompt');
  if (!id || !prompt) return { idNode: id };
  const expected = values.get('expected_output')?.value as string | undefined;
  return { case: { id: Number(id.value), prompt: String(prompt.value), ...(expected !== undefined ? { expected_output: expected } : {}), ...lists }, idNode: id };
}

/** Why an input file is refused (lexically always; on the disk when the skill's folder and a host are given). */
function fileRefusal(value: string, opts: EvalsCheckOptions): string | undefined {
  if (opts.skillDir && opts.host) {
    const r = resolveInRootOn(opts.host, opts.skillDir, value);
    return r.ok ? undefined : refusalText(r.reason, r.real);
  }
  const r = checkRelative(value);
  return r.ok ? undefined : refusalText(r.reason);
}
