// User text (a request, a skill name, a model's error) written into a Markdown report: one line, no control
// characters, and every character Markdown reads as syntax escaped, so a `|` cannot split a table cell, a backtick
// cannot open code, and a `<` cannot start HTML in a preview that renders it.

/** Longest user text put in one cell; the rest is cut with "…" (a request is a sentence, not a document). */
export const MAX_CELL_CHARS = 500;

/**
 * C0 and C1 controls and DEL, and the ASCII punctuation that can start Markdown syntax inside a line: code, emphasis,
 * links and images (`[` is enough to stop both), HTML, entities, table cells, strikethrough, headings.
 */
const SPECIAL = /[\u0000-\u001f\u007f-\u009f\\`*_[\]<>|~&#]/g;

/**
 * `s` as inert Markdown text on one line: line breaks and tabs become spaces, other control characters show as
 * `\xNN` (an escaped backslash, then the code), Markdown syntax is backslash-escaped; cut at `max` characters.
 */
export function markdownText(s: string, max = MAX_CELL_CHARS): string {
  const one = s.replace(/\r\n|[\r\n\t]/g, ' ');
  const cut = one.length > max ? `${one.slice(0, max)}…` : one;
  return cut.replace(SPECIAL, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 || (code >= 0x7f && code <= 0x9f) ? `\\\\x${code.toString(16).padStart(2, '0')}` : `\\${c}`;
  });
}

/** A GitHub-flavoured Markdown table; cells must already be Markdown (user text through markdownText). */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}
