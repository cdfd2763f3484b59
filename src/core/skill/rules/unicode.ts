import type { Finding } from '../findings';
import type { TextIndex } from '../textIndex';
import { INVISIBLE, invisibleIn } from '../../text/invisibleScan';
import { rule, type RuleInfo } from './ruleInfo';

export { invisibleIn };

export const UNICODE_RULES: readonly RuleInfo[] = [
  rule('invisible-unicode', 'warning', 'warning', 'Invisible or bidirectional Unicode characters (zero-width, bidi controls, tag characters).',
    'Zero-width spaces, bidirectional overrides and Unicode tag characters do not show in an editor but reach the model: they can hide instructions or make text read differently from how it looks (the "Trojan Source" attack). Remove them; the quick fix and `validate --fix` delete every one in the file.',
    { fix: { title: 'Remove the invisible characters', safe: true } }),
];

function describe(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  if (cp >= 0xe0000) return `${hex} (tag character)`;
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0x200e || cp === 0x200f) return `${hex} (bidirectional control)`;
  return `${hex} (zero-width or formatting)`;
}

/** One finding per line that holds invisible characters; the fix deletes all of them in the file. */
export function checkInvisible(text: string, index: TextIndex, out: Finding[]): void {
  const first = invisibleIn(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  if (first < 0) return;
  const hits: { at: number; len: number; ch: string }[] = [];
  INVISIBLE.lastIndex = first;
  for (let m = INVISIBLE.exec(text); m; m = INVISIBLE.exec(text)) hits.push({ at: m.index, len: m[0].length, ch: m[0] });
  const edits = hits.map((h) => ({ range: index.rangeOf(h.at, h.at + h.len), newText: '' }));
  const byLine = new Map<number, typeof hits>();
  for (const h of hits) {
    const line = index.positionAt(h.at).line;
    const list = byLine.get(line) ?? [];
    list.push(h);
    byLine.set(line, list);
  }
  for (const [line, list] of byLine) {
    const kinds = [...new Set(list.map((h) => describe(h.ch)))].join(', ');
    out.push({
      rule: 'invisible-unicode',
      message: `Line ${line + 1} holds ${list.length} invisible character${list.length === 1 ? '' : 's'}: ${kinds}. They are hidden in editors but read by the model; delete them.`,
      range: index.rangeOf(list[0].at, list[list.length - 1].at + list[list.length - 1].len),
      data: { characters: list.length, fix: { title: 'Remove the invisible characters', edits } },
    });
  }
}
