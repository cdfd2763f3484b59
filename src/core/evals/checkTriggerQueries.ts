// Checks a skill's trigger set (`evals/trigger-queries.json`): a JSON array of requests, each `{ "query": string,
// "should_trigger": boolean }` plus the optional fields of triggerFields.ts. What the checks find: JSON that does not
// parse, a shape other than that, a request twice (or twice with opposite answers), a set without a request that
// should trigger or without one that should not, and a request that names the skill (it tests the name, not the
// description). Bounded: a file over MAX_TRIGGER_FILE_CHARS is not parsed, at most MAX_TRIGGER_QUERIES requests
// are read, and text nested deeper than MAX_TRIGGER_DEPTH is not parsed (the parser recurses per level).
// jsonc-parser's ESM build: its UMD main requires its parts at run time, which a bundle cannot follow.
import { printParseErrorCode, type Node as JsonNode } from 'jsonc-parser/lib/esm/main.js';
import { jsonTypeText } from './jsonFields';
import { jsonTextParseable, MAX_JSON_DEPTH, MAX_JSON_FILE_CHARS, nestingDepth, readFields, readJsonTree, type TextSpan } from './jsonTree';
import { TRIGGER_FIELDS, TRIGGER_QUERIES_FILE, type TriggerSplit } from './triggerFields';

/** The largest trigger file parsed (a set of twenty requests is about 2 KB). */
export const MAX_TRIGGER_FILE_CHARS = MAX_JSON_FILE_CHARS;
/** The most requests read from one file. */
export const MAX_TRIGGER_QUERIES = 1000;
/** The deepest nesting parsed: a request is two levels deep. */
export const MAX_TRIGGER_DEPTH = MAX_JSON_DEPTH;

export { nestingDepth };

/** Whether the parser may be run on this text (completion and hover ask too): within the size and depth bounds. */
export const triggerTextParseable = jsonTextParseable;

/** One request as read. */
export interface TriggerQuery {
  query: string;
  should_trigger: boolean;
  split?: TriggerSplit;
  note?: string;
}

/** A problem in a trigger file, at a character range of its text. */
export interface TriggerFinding {
  rule: 'trigger-json' | 'trigger-shape' | 'trigger-field' | 'trigger-duplicate' | 'trigger-balance' | 'trigger-names-skill' | 'trigger-size';
  severity: 'error' | 'warning';
  message: string;
  offset: number;
  length: number;
}

export interface TriggerCheck {
  /** The requests that are well formed, in file order. */
  queries: TriggerQuery[];
  /** Where each of `queries` is in the text: the offset of its `query` value (same order). */
  offsets: number[];
  findings: TriggerFinding[];
}

/** How two requests are compared (duplicates, two runs): case, spacing and end punctuation do not make a new request. */
export function triggerQueryKey(q: string): string {
  return q.toLowerCase().replace(/\s+/g, ' ').trim().replace(/[.!?]+$/, '');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * True when `query` calls the skill by its name: as written when the name is not a plain word (`meeting-notes`,
 * `pdf2`), marked as a reference (`$pdf`, `#pdf`, `/pdf`, `@pdf`), or as "the <name> skill" / "skill <name>"
 * (hyphens may be spaces there). The words of a name used as words ("my meeting notes") do not count: that is how
 * a user who never heard of the skill asks.
 */
export function namesSkill(query: string, skill: string): boolean {
  if (skill.length < 2) return false;
  const start = '(^|[^\\p{L}\\p{N}_-])';
  const end = '($|[^\\p{L}\\p{N}_-])';
  const exact = escapeRegExp(skill);
  const spaced = skill.split(/[-_\s]+/).filter(Boolean).map(escapeRegExp).join('[-_\\s]?');
  const test = (source: string) => new RegExp(source, 'iu').test(query);
  return (
    (/[-_\d]/.test(skill) && test(`${start}${exact}${end}`)) ||
    test(`[$#/@]${exact}${end}`) ||
    test(`${start}(${spaced})\\s+skill${end}`) ||
    test(`${start}skill\\s+(called\\s+|named\\s+)?["'\`]?(${spaced})${end}`)
  );
}

/** The 0-based line and character of an offset (for locations in SARIF and annotations). */
export function positionOf(text: string, offset: number): { line: number; character: number } {
  const line = lineOf(text, offset) - 1;
  return { line, character: offset - (text.lastIndexOf('\n', offset - 1) + 1) };
}

/** The 1-based line of an offset (messages that point at another request, locations of results). */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * Checks the text of a trigger file. `skill` is the name of the skill it belongs to (its SKILL.md's `name`, else
 * its folder's name); `file` names the file in messages.
 */
export function checkTriggerQueries(text: string, opts: { skill?: string; file?: string } = {}): TriggerCheck {
  const file = opts.file ?? TRIGGER_QUERIES_FILE;
  const findings: TriggerFinding[] = [];
  const queries: TriggerQuery[] = [];
  const offsets: number[] = [];
  const add = (rule: TriggerFinding['rule'], severity: TriggerFinding['severity'], at: { offset: number; length: number }, message: string) =>
    findings.push({ rule, severity, offset: at.offset, length: Math.max(1, at.length), message });
  const whole = { offset: 0, length: Math.min(text.length, 1) };

  const tree = readJsonTree(text);
  if (tree.kind === 'too-large') {
    add('trigger-size', 'error', whole, `${file} is ${text.length} characters, over the ${MAX_TRIGGER_FILE_CHARS} read: it is not checked. Keep a trigger set to the requests that test the description (about twenty).`);
    return { queries, offsets, findings };
  }
  if (tree.kind === 'too-deep') {
    add('trigger-shape', 'error', whole, `${file} nests arrays or objects more than ${MAX_TRIGGER_DEPTH} deep: it is not checked. A trigger set is an array of flat requests { "query": "...", "should_trigger": true|false }.`);
    return { queries, offsets, findings };
  }
  const { root, errors } = tree;
  for (const e of errors.slice(0, 20)) {
    add('trigger-json', 'error', e, `${file} is not valid JSON here (${printParseErrorCode(e.error)}). Fix the JSON: a trigger set is an array of { "query": "...", "should_trigger": true|false }.`);
  }
  if (!root) return { queries, offsets, findings };
  if (root.type !== 'array') {
    add('trigger-shape', 'error', root, `${file} must be a JSON array of requests, e.g. [{ "query": "...", "should_trigger": true }]; it is ${root.type === 'object' ? 'an object' : `a ${root.type}`}.`);
    return { queries, offsets, findings };
  }
  const items = root.children ?? [];
  if (items.length > MAX_TRIGGER_QUERIES) {
    add('trigger-size', 'error', items[MAX_TRIGGER_QUERIES], `${file} has ${items.length} requests; only the first ${MAX_TRIGGER_QUERIES} are checked. Keep a trigger set to the requests that test the description (about twenty).`);
  }
  const seen = new Map<string, { node: JsonNode; should: boolean }>();
  for (const [i, item] of items.slice(0, MAX_TRIGGER_QUERIES).entries()) {
    const q = checkItem(item, i, file, add);
    if (!q) continue;
    queries.push(q.query);
    offsets.push(q.queryNode.offset);
    const key = triggerQueryKey(q.query.query);
    const first = seen.get(key);
    if (first) {
      const where = `line ${lineOf(text, first.node.offset)}`;
      if (first.should !== q.query.should_trigger) {
        add('trigger-duplicate', 'error', q.queryNode, `Request ${i + 1} repeats the request on ${where} with the opposite should_trigger: one of them is wrong. Keep one, with the answer you mean.`);
      } else {
        add('trigger-duplicate', 'warning', q.queryNode, `Request ${i + 1} repeats the request on ${where}: it counts twice in the pass rate. Remove it, or rephrase it as another way a user would ask.`);
      }
    } else seen.set(key, { node: q.queryNode, should: q.query.should_trigger });
    if (opts.skill && namesSkill(q.query.query, opts.skill)) {
      add('trigger-names-skill', 'warning', q.queryNode, `Request ${i + 1} names the skill "${opts.skill}": it tests the name, not the description. Ask as a user who does not know the skill's name would.`);
    }
  }
  if (queries.length && !queries.some((q) => q.should_trigger)) {
    add('trigger-balance', 'warning', { offset: root.offset, length: 1 }, `${file} has no request with "should_trigger": true: it cannot show that the skill is picked when it should be. Add requests the skill is for.`);
  }
  if (queries.length && !queries.some((q) => !q.should_trigger)) {
    add('trigger-balance', 'warning', { offset: root.offset, length: 1 }, `${file} has no request with "should_trigger": false: it cannot show that the skill stays out of near misses. Add requests that share its words but are another skill's job.`);
  }
  return { queries, offsets, findings };
}

/** One array element: an object with the fields of the table. Answers the request when it is well formed. */
function checkItem(
  item: JsonNode,
  i: number,
  file: string,
  add: (rule: TriggerFinding['rule'], severity: TriggerFinding['severity'], at: TextSpan, message: string) => void,
): { query: TriggerQuery; queryNode: JsonNode } | undefined {
  const n = i + 1;
  if (item.type !== 'object') {
    add('trigger-shape', 'error', item, `Request ${n} of ${file} must be an object { "query": "...", "should_trigger": true|false }; it is ${jsonTypeText(item.type)}.`);
    return undefined;
  }
  const values = readFields(item, TRIGGER_FIELDS, `Request ${n}`, 'a request', (severity, at, message) => add('trigger-field', severity, at, message), (name) =>
    name === 'query' ? '"query": "<a request as a user would type it>"' : '"should_trigger": true (or false for a near miss)',
  );
  const typed = values.get('query');
  if (typed && !String(typed.value).trim()) {
    add('trigger-field', 'error', typed, `Request ${n}: "query" is empty. Write the request as a user would type it.`);
    values.delete('query');
  }
  const query = values.get('query');
  const should = values.get('should_trigger');
  if (!query || !should) return undefined;
  const split = values.get('split')?.value as TriggerSplit | undefined;
  const note = values.get('note')?.value as string | undefined;
  return { query: { query: String(query.value), should_trigger: should.value === true, ...(split ? { split } : {}), ...(note !== undefined ? { note } : {}) }, queryNode: query };
}
