import { rule, type RuleInfo } from './ruleInfo';
import { includesVia } from '../textSearch';

/** What the language server's "add description" quick fix inserts; it must be replaced, so it is a placeholder too. */
export const DESCRIPTION_PLACEHOLDER = 'Describe what this skill does and when to use it.';

/** Case-sensitive: `TODO` in capitals is a marker, a "todo list" is prose. A bracket followed by `(` is a link. */
const PLACEHOLDER = /\b(?:TODO|TBD|FIXME)\b|\[(?:Insert|Add|Your|Describe)\b[^\]\n]{0,80}\](?!\()|Describe what this skill does and when to use it\./g;

/** Placeholder text left in a skill. */
export const PLACEHOLDER_RULES: readonly RuleInfo[] = [
  rule('placeholder-text', 'warning', 'warning', 'Placeholder text (TODO, TBD, `[Insert …]`, the template description) is left in the skill.',
    'Placeholders are read by the model as instructions ("TODO: …") or shown to users as the skill\'s description. Replace them with the real text, or remove them. Placeholders inside code blocks are not reported, nor is text that talks about markers (a quoted "TODO", "TODO markers", "TODOs", a list of kinds such as "TODO/FIXME comments"): a marker counts when it stands as the text of a line, list item, cell, bracket or label, or opens a note (`TODO: …`). A TBD that opens a table cell the cell goes on to qualify (`| TBD — after the vote |`) is data of the table. A bracketed placeholder (`[Insert …]`) counts when it is the whole text of its line or list item; after a label, inside a sentence or in a quoted block it is a field of a template the model fills in.'),
];

/** Literals one of which every placeholder holds, each with its rarest character (the one searched for). */
const LITERALS: readonly [string, number][] = [['TODO', 1], ['TBD', 1], ['FIXME', 2], ['Describe what this skill', 0]];
/** The bracketed placeholders: one search for '[' checks them all. */
const BRACKETED: readonly string[] = ['[Insert', '[Add', '[Your', '[Describe'];

/** The letters the bracketed placeholders start with, after the `[`. */
const BRACKETED_FIRST = new Set(BRACKETED.map((b) => b.charCodeAt(1)));

function bracketedIn(text: string, from: number): boolean {
  for (let at = text.indexOf('[', from); at >= 0; at = text.indexOf('[', at + 1)) {
    // A text of many `[` checks one character for most of them, not four prefixes.
    if (!BRACKETED_FIRST.has(text.charCodeAt(at + 1))) continue;
    for (let i = 0; i < BRACKETED.length; i++) if (text.startsWith(BRACKETED[i], at)) return true;
  }
  return false;
}

/** A necessary condition for a placeholder in `text` from `from`: one of its literals is there (the fast path asks this too). */
export function mayHoldPlaceholder(text: string, from = 0): boolean {
  // A loop, not `some` with a closure: this runs for every skill of a scan.
  for (let i = 0; i < LITERALS.length; i++) if (includesVia(text, LITERALS[i][0], LITERALS[i][1], from)) return true;
  return bracketedIn(text, from);
}

/** What may stand before a marker that opens its line, list item, cell, bracket, label or sentence. */
const OPENS = /(?:^|[|([<>]|[-*+]\s|\d[.)]\s|#\s|:\s*|\*\*|__|[.!?]\s)\s*$/;
/** After an opening marker: words that make it a noun's modifier ("TODO markers", "TODO-like"): talk about markers. */
const MODIFIES = /^[-\s]*(?:markers?|placeholders?|items?|comments?|notes?|tags?|lists?|entries|like|style|sections?)\b/i;
/**
 * Markers joined into a list ("TODO/FIXME comments", "FIXME, TODO and XXX", "TODO or HACK notes"): kinds of marker
 * named as a topic, never one left in the text. Asked of the text right after a marker and right before one.
 */
const MARKER_LIST_AFTER = /^\s*(?:\/|,|&|\band\/or\b|\band\b|\bor\b)\s*(?:TODO|TBD|FIXME|XXX|HACK|BUG|NOTE)s?\b/;
const MARKER_LIST_BEFORE = /\b(?:TODO|TBD|FIXME|XXX|HACK|BUG|NOTE)s?\s*(?:\/|,|&|\band\/or|\band|\bor)\s*$/;

/**
 * After a marker inside a sentence: it ends the sentence, line or cell ("Steps TBD.", "Owner: TBD |"). A colon does
 * not count there: "Add TODO: …" or "mark it TODO: …" tells what to write, a note left by the author opens its line.
 */
const ENDS = /^(?:\s*[)\]>|]|\s*[.!]?\s*$|\s*[.!]\s*(?:\||$))/;
/** After a marker: a qualification set off by a dash, a bracket or a comma, then words ("TBD — the first quiet week"). */
const QUALIFIED = /^\s*(?:[—–]|-{1,2}\s|\(|,)\s*[^\s|]/;

/**
 * True when the marker opens a table cell and the cell goes on to qualify it (`| TBD — the first quiet week |`,
 * `| TBD (after the vote) |`): the cell's value is data, a status the table states, not an unfinished sentence.
 * Asked for TBD only (to be decided: a status); TODO and FIXME are work left to the author wherever they stand. A
 * cell holding only the marker (`| TBD |`) is still a placeholder.
 */
function qualifiesCell(before: string, after: string): boolean {
  return /\|\s*$/.test(before) && (/^\s*\|/.test(before) || after.includes('|')) && QUALIFIED.test(after);
}

/**
 * Before a bracketed placeholder that stands where the skill's own text should be: nothing, a list marker or a
 * heading mark. After a label (`**Style:** [Describe]`), inside a sentence (`Pages > [Your Worker] > Logs`) or in a
 * quoted block (`> [Your name]`), a bracket is a field of a template the model fills in.
 */
const BRACKET_OPENS = /^\s*(?:[-*+]\s+|\d+[.)]\s+|#{1,6}\s+)?$/;
/** After such a bracket: at most a full stop before the line ends. */
const BRACKET_ENDS = /^\s*\.?\s*$/;

/** True when the bracketed placeholder at `start` is the whole text of its line (see BRACKET_OPENS). */
function bracketStandsAlone(text: string, start: number, length: number): boolean {
  const window = text.slice(Math.max(0, start - 80), start);
  const before = window.slice(window.lastIndexOf('\n') + 1);
  if (window.lastIndexOf('\n') < 0 && start > 80) return false;
  const ahead = text.slice(start + length, start + length + 80);
  const cut = ahead.indexOf('\n');
  return BRACKET_OPENS.test(before) && BRACKET_ENDS.test(cut < 0 ? ahead : ahead.slice(0, cut));
}

/**
 * True when the marker word at `start` is a placeholder left in the text (`TODO: write this`, `TODO one`,
 * `| TBD |`, `Steps TBD.`, `[TODO]`), not prose that talks about markers (`any "TBD" or "TODO"?`, "has TODO
 * markers", "is a TODO for later", "is TBD, so"): quoted, modifying a noun, or inside a sentence that goes on.
 */
function standsAlone(text: string, start: number, word: string): boolean {
  // At most 80 characters either side, cut at the line's ends: a search for the line's start or end could cross a
  // whole one-line body for each marker (quadratic on `TODO ` repeated).
  const window = text.slice(Math.max(0, start - 80), start);
  const before = window.slice(window.lastIndexOf('\n') + 1);
  const ahead = text.slice(start + word.length, start + word.length + 80);
  const cut = ahead.indexOf('\n');
  const after = cut < 0 ? ahead : ahead.slice(0, cut);
  if ((before !== '' && QUOTES_BEFORE.includes(before.charAt(before.length - 1))) || /^["'”’`]/.test(after)) return false;
  if (word === 'TBD' && qualifiesCell(before, after)) return false;
  if (MARKER_LIST_AFTER.test(after) || MARKER_LIST_BEFORE.test(before)) return false;
  return opensBefore(before) ? !MODIFIES.test(after) : ENDS.test(after);
}

/** Quotes that, just before a marker, make it a word talked about. */
const QUOTES_BEFORE = '"\'“‘`';

/**
 * `OPENS.test(before)`, asked of the end of `before` only: a match is at most two characters then white space to the
 * end (or white space alone), so the expression never tries each of the window's 80 starts, for every marker of a
 * body of `TODO ` repeated.
 */
function opensBefore(before: string): boolean {
  let end = before.length;
  while (end > 0 && /\s/.test(before.charAt(end - 1))) end--;
  return OPENS.test(end <= 2 ? before : before.slice(end - 2));
}

/** Every placeholder in `text` from offset `from`, as written, with its offset. */
export function placeholdersIn(text: string, from = 0): { text: string; start: number }[] {
  return [...placeholderMatches(text, from)];
}

/** The placeholders of {@link placeholdersIn}, one at a time (a caller that stops early does not find the rest). */
export function* placeholderMatches(text: string, from = 0): Generator<{ text: string; start: number }> {
  // A few literal searches are much faster than the regular expression over a long body; it runs only on a hit.
  if (!mayHoldPlaceholder(text, from)) return;
  const re = new RegExp(PLACEHOLDER.source, 'g');
  re.lastIndex = from;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const marker = /^(?:TODO|TBD|FIXME)$/.test(m[0]);
    if (marker && !standsAlone(text, m.index, m[0])) continue;
    if (m[0].startsWith('[') && !bracketStandsAlone(text, m.index, m[0].length)) continue;
    yield { text: m[0], start: m.index };
  }
}

/** The first placeholder in `text`, or undefined. */
export function placeholderIn(text: string): string | undefined {
  return placeholdersIn(text)[0]?.text;
}
