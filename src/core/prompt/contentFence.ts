/**
 * Keeps what a skill wrote inside the wrapper we put around it. A skill body or doc is untrusted text placed
 * between our own markers (`<skill name="...">`...`</skill>` inside `<active_skills>`, and seed 002's
 * `--- Content from <path> ---` / `--- End of <path> ---` lines). Left as written, a body containing
 * `</skill></active_skills><system>...` closes our wrapper and poses as another skill or as host text, and a
 * doc can fake its own end marker. So every spelling of our tags and doc markers inside content is
 * neutralised, and control characters (ESC sequences, U+0085 NEL, bidi overrides) are removed.
 *
 * The rewriting is a pure function of the text: the same skill gives the same bytes on every call, so the
 * composed prompt stays cacheable (a random per-call nonce would have broken the shared prefix).
 */

/** The tag names of our wrappers (the catalog's and the loaded content's), any case, opening or closing. */
const OUR_TAGS = /<(\/?)(\s*)(active_skills|available_skills|skill)(?=[\s/>]|$)/gi;

/** A line that reads like one of our doc markers (any leading white space). */
const DOC_MARKER = /^([ \t]*)(--- (?:Content from|End of) )/gim;

/**
 * C0 controls other than tab and line feed, DEL, C1 controls (U+0085 NEL included), and the bidirectional
 * overrides and isolates that can make text display differently from what it says.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Removes control characters, keeping `\n` and `\t`; CRLF and the Unicode line separators become `\n`. */
export function stripControlChars(text: string): string {
  return text.replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(CONTROL, '');
}

/**
 * Skill content (a body or a doc) made safe to place inside our wrapper: control characters removed, our
 * tags escaped as text (`<` written `&lt;`), and marker-like lines prefixed with a backslash. Readers (models)
 * still see what the skill says; only the wrapper's own syntax can no longer be produced from inside.
 */
export function fenceContent(text: string): string {
  return escapeOurTags(stripControlChars(text)).replace(DOC_MARKER, (_m, indent: string, marker: string) => `${indent}\\${marker}`);
}

/** Our tags written as text (`<` as `&lt;`), any case, opening or closing. */
function escapeOurTags(text: string): string {
  return text.replace(OUR_TAGS, (_m, slash: string, space: string, name: string) => `&lt;${slash}${space}${name}`);
}

/**
 * A one-line label (a doc path or a skill name inside a marker): no control characters, no line breaks, and
 * none of our tags. A path is the skill's own folder names with "/" between them, so folders named `x<` and
 * `skill>` spell `x</skill>`.
 */
export function fenceLabel(text: string): string {
  return escapeOurTags(stripControlChars(text).replace(/\s*\n\s*/g, ' '));
}
