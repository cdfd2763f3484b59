/**
 * Quiet text: a SKILL.md text without any of the characters the rules' literal searches start from. The
 * "plain" predicates of the rule families (the fast path of the registry's checker) skip those searches when
 * the text is quiet: one pass of one character class instead of a dozen searches, most of which find nothing.
 *
 * Each family says next to its own searches which of these characters it relies on:
 * - `` ` `` and `~`: code fences; `]`: anchor links (`](#`) and link-reference definitions (`]:`); `[`: the
 *   bracketed placeholders (`[Insert …]`); `!`: HTML comments (`<!--`, suppressions too) and dynamic context
 *   (`` !`cmd` ``); `$`: `$ARGUMENTS`; `<`: tags in the description;
 * - any character from U+0080 on: the invisible characters (all from U+00AD on) and anything else outside ASCII.
 *
 * A family that gains a search for another character must either add it here or not skip that search: the
 * tests compare the quiet path with the full predicates on generated texts holding each of these characters.
 */
const LOUD = /[`~[\]!$<\u0080-\uffff]/;

/** True when `text` holds none of the characters listed above. */
export function isQuiet(text: string): boolean {
  return !LOUD.test(text);
}
