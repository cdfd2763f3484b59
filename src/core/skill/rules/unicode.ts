import type { Finding } from '../findings';
import type { TextIndex } from '../textIndex';
import type { Range } from '../skillTypes';
import { DIAGNOSTIC_LIMITS } from '../diagnosticLimits';
import { invisibleIn, invisibleLengthAt } from '../../text/invisibleScan';
import { rule, type RuleInfo } from './ruleInfo';

export { invisibleIn };

export const UNICODE_RULES: readonly RuleInfo[] = [
  rule('invisible-unicode', 'warning', 'warning', 'Invisible or bidirectional Unicode characters (zero-width, bidi controls, tag characters).',
    'Zero-width spaces, bidirectional overrides and Unicode tag characters do not show in an editor but reach the model: they can hide instructions or make text read differently from how it looks (the "Trojan Source" attack). Remove them; the quick fix and `validate --fix` delete every one in the file.',
    { fix: { title: 'Remove the invisible characters', safe: true } }),
];

const DESCRIBED = new Map<number, string>();

/** {@link describeOnce}, remembered per code point (a file may hold a million of them). */
function describe(cp: number): string {
  let d = DESCRIBED.get(cp);
  if (d === undefined) DESCRIBED.set(cp, (d = describeOnce(cp)));
  return d;
}

function describeOnce(cp: number): string {
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  if (cp >= 0xe0000) return `${hex} (tag character)`;
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0x200e || cp === 0x200f) return `${hex} (bidirectional control)`;
  return `${hex} (zero-width or formatting)`;
}

const PICTOGRAPH = /\p{Extended_Pictographic}/u;
/** What may follow an emoji inside its sequence: a variation selector (U+FE0F) or a skin-tone modifier (U+1F3FB–1F3FF). */
const EMOJI_TAIL = /(?:\ufe0f|\ud83c[\udffb-\udfff])+$/;

/**
 * True when the zero-width joiner at `at` joins two emoji into one (`🧑‍🏫`, `👩🏽‍💻`): it is part of how the emoji is
 * written and shows as one picture, so it hides nothing. Any other joiner is reported.
 */
function joinsEmoji(text: string, at: number): boolean {
  if (text.charCodeAt(at) !== 0x200d) return false;
  const before = text.slice(Math.max(0, at - 8), at).replace(EMOJI_TAIL, '');
  const prev = /[\ud800-\udbff][\udc00-\udfff]$/.test(before) ? before.slice(-2) : before.slice(-1);
  const next = String.fromCodePoint(text.codePointAt(at + 1) ?? 0);
  return PICTOGRAPH.test(prev) && PICTOGRAPH.test(next);
}

/**
 * Most edits one fix carries: runs of invisible characters in a row are one edit each; a file with more runs is
 * cleaned over several fixes (`validate --fix` repeats) rather than every finding carrying an edit per character.
 */
const MAX_FIX_EDITS = 64;

/** One finding per line that holds invisible characters; the fix deletes them in the file (up to MAX_FIX_EDITS runs). */
export function checkInvisible(text: string, index: TextIndex, out: Finding[]): void {
  const first = invisibleIn(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  if (first < 0) return;
  // Runs of adjacent invisible characters, per line: count, kinds, first and last offset.
  const byLine = new Map<number, { count: number; kinds: Set<string>; start: number; end: number }>();
  const edits: { range: Range; newText: string }[] = [];
  let runStart = -1;
  let runEnd = -1;
  const closeRun = () => {
    if (runStart >= 0 && edits.length < MAX_FIX_EDITS) edits.push({ range: index.rangeOf(runStart, runEnd), newText: '' });
  };
  // The line of the last hit and where the next line starts: hits come in order, so a line of a million invisible
  // characters is looked up once, not once per character; and the unit after a hit is tested before any search.
  let hitLine = -1;
  let nextLine = -1;
  for (let at = first; at >= 0; ) {
    const len = invisibleLengthAt(text, at) || 1;
    const end = at + len;
    if (!joinsEmoji(text, at)) {
      if (at >= nextLine) {
        hitLine = index.positionAt(at).line;
        nextLine = index.hasLine(hitLine + 1) ? index.lineStart(hitLine + 1) : text.length + 1;
      }
      const kind = describe(len === 2 ? (text.codePointAt(at) ?? 0) : text.charCodeAt(at));
      const entry = byLine.get(hitLine);
      if (entry) {
        entry.count++;
        if (entry.kinds.size < 8) entry.kinds.add(kind);
        entry.end = end;
      } else byLine.set(hitLine, { count: 1, kinds: new Set([kind]), start: at, end });
      if (at === runEnd) runEnd = end;
      else {
        closeRun();
        runStart = at;
        runEnd = end;
      }
    }
    at = invisibleLengthAt(text, end) > 0 ? end : invisibleIn(text, end);
  }
  closeRun();
  let lines = 0;
  for (const [line, e] of byLine) {
    // Past what one file reports (see diagnosticLimits), more findings would only be counted and dropped.
    if (++lines > DIAGNOSTIC_LIMITS.maxPerFile) break;
    out.push({
      rule: 'invisible-unicode',
      message: `Line ${line + 1} holds ${e.count} invisible character${e.count === 1 ? '' : 's'}: ${[...e.kinds].join(', ')}. They are hidden in editors but read by the model; delete them.`,
      range: index.rangeOf(e.start, e.end),
      data: { characters: e.count, fix: { title: 'Remove the invisible characters', edits } },
    });
  }
}
