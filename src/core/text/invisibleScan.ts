/**
 * Finds the first invisible character of a text (zero-width and formatting characters, bidirectional controls,
 * Unicode tag characters): on long texts eight UTF-16 code units at a time (src/core/text/simdUnits.ts), else with
 * a regular expression.
 */
import { INVISIBLE_RANGES, simdAvailable, SIMD_MIN_UNITS, simdUnits } from './simdUnits';

const TAG_HIGH = 0xdb40;
const hex = (u: number): string => `\\u${u.toString(16).padStart(4, '0')}`;
/** A character class of INVISIBLE_RANGES, without the tag characters' high surrogate unless asked. */
const unitClass = (withTagHigh: boolean): string =>
  INVISIBLE_RANGES.filter(([start]) => withTagHigh || start !== TAG_HIGH)
    .map(([start, count]) => (count === 1 ? hex(start) : `${hex(start)}-${hex(start + count - 1)}`))
    .join('');

/**
 * Zero-width and formatting characters, bidirectional controls, and Unicode tag characters (U+E0000–E007F,
 * the surrogate pair starting 0xDB40), as a regular expression (global; callers set `lastIndex`), built from
 * INVISIBLE_RANGES, the one list of these characters.
 */
export const INVISIBLE = new RegExp(`[${unitClass(false)}]|${hex(TAG_HIGH)}[\\udc00-\\udc7f]`, 'g');

/** Every code unit an invisible character starts with (0xDB40 also starts other characters: INVISIBLE decides). */
const INVISIBLE_START = new RegExp(`[${unitClass(true)}]`, 'g');

/** True when an invisible character starts at offset `i` of `text`. */
function invisibleAt(text: string, i: number): boolean {
  return invisibleLengthAt(text, i) > 0;
}

/** Code units of the invisible character starting at offset `i` of `text` (2 for a tag character), or 0 when none does. */
export function invisibleLengthAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (!(c >= 0xad)) return 0;
  if (c === TAG_HIGH) {
    const low = text.charCodeAt(i + 1);
    return low >= 0xdc00 && low <= 0xdc7f ? 2 : 0;
  }
  for (let r = 0; r < INVISIBLE_RANGES.length; r++) {
    const start = INVISIBLE_RANGES[r][0];
    if (c >= start && c < start + INVISIBLE_RANGES[r][1]) return 1;
  }
  return 0;
}

/** Offset of the first invisible character of `text` at or after `from`, or -1. Linear in the text's length. */
export function invisibleIn(text: string, from = 0): number {
  const units = text.length - from >= SIMD_MIN_UNITS ? simdUnits(text) : null;
  if (!units) {
    // One character class first (about twice as fast as the alternation); the full expression only from a hit on.
    INVISIBLE_START.lastIndex = from;
    const first = INVISIBLE_START.exec(text);
    if (!first) return -1;
    INVISIBLE.lastIndex = first.index;
    const m = INVISIBLE.exec(text);
    return m ? m.index : -1;
  }
  for (let block = from; ; block += 8) {
    block = units.invisibleBlock(block);
    if (block < 0) return -1;
    // The module reports the 8-unit block holding a candidate unit: check each (a lone 0xDB40 is no tag).
    for (let i = block; i < Math.min(block + 8, text.length); i++) if (invisibleAt(text, i)) return i;
  }
}

/** Which scan long texts get here: `simd`, or `regex` where WebAssembly SIMD is not available. */
export function invisibleScanKind(): 'simd' | 'regex' {
  return simdAvailable() ? 'simd' : 'regex';
}
