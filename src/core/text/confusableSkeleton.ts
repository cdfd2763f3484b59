/**
 * The confusable skeleton of a string (Unicode UTS #39, section 4): NFD, each character replaced by its prototype in
 * the Unicode confusables table, NFD again. Two strings that look alike on screen have the same skeleton: the
 * Cyrillic `рdf` and `pdf`, `rn` and `m`, `1` and `l`. A skeleton is for comparing, never for showing.
 *
 * The table is Unicode's `confusables.txt` (13.0.0) as the npm package `unhomoglyph` (nodeca) ships it in its
 * `data.json`: one source character to its prototype. Its own function matches with one regular expression of
 * 6,311 alternatives; looking each character up in a map is linear in the string and costs no regular expression.
 */
import confusables from 'unhomoglyph/data.json';

const PROTOTYPES = new Map<string, string>(Object.entries(confusables as Record<string, string>));

/** Skeletons already computed: names repeat on every listing (bounded: cleared when full). */
const seen = new Map<string, string>();
const SEEN_MAX = 50_000;

/** The UTS #39 skeleton of `s`. */
export function confusableSkeleton(s: string): string {
  const cached = seen.get(s);
  if (cached !== undefined) return cached;
  let out = '';
  for (const ch of s.normalize('NFD')) out += PROTOTYPES.get(ch) ?? ch;
  out = out.normalize('NFD');
  if (seen.size >= SEEN_MAX) seen.clear();
  seen.set(s, out);
  return out;
}

/**
 * What two lowercase names are compared by for looking alike: the skeleton, lowercased, then skeletonized again.
 * UTS #39 keeps case, but a name that reads as `PDF` is taken for `pdf`: caseless letters (Lisu `ꓑꓓꓝ`) pass the
 * lowercase rule of names and have capital Latin prototypes (test/cli/mcpSpoofing.redteam.test.ts).
 */
export function lookAlikeKey(name: string): string {
  return confusableSkeleton(confusableSkeleton(name).toLowerCase());
}
