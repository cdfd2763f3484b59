/**
 * Interpreters (and runners) followed by a script: `python3 -u check.py`, `uv run check.py`, `bash setup.sh`. Each
 * option is read one way only (dashes, then a word character), so a long run of options cannot backtrack.
 */
export const RUN_SCRIPT = /(?<![\w/.-])(?:python[23]?(?:\.\d+)?|py|uv run|poetry run python|node|deno run|bun(?: run)?|tsx|ts-node|bash|sh|zsh|ruby|perl|Rscript|pwsh|powershell(?: -File)?)\s+(?:--?\w[\w-]*(?:=\S+)?\s+)*(\w[\w.-]*\.(?:py|js|mjs|cjs|ts|sh|bash|rb|pl|R|ps1))(?=[\s`'"|;&)]|$)/gm;

/** The end every {@link RUN_SCRIPT} match has: a script extension, then a delimiter or the line's end. */
const SCRIPT_END = /\.(?:py|js|mjs|cjs|ts|sh|bash|rb|pl|R|ps1)(?=[\s`'"|;&)]|$)/gm;

/** {@link RUN_SCRIPT} tried at one position only. */
const RUN_SCRIPT_AT = new RegExp(RUN_SCRIPT.source, 'my');

const isSpace = (c: string): boolean => /\s/.test(c);
const isNameCode = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;

/**
 * Every match of {@link RUN_SCRIPT} in `text`, in order: the same matches as running it over the whole text, found
 * without trying it at every position (trying it everywhere was the costliest scan of a SKILL.md per keystroke).
 *
 * Why it finds the same: a match is `interpreter` `\s+` (`option` `\s+`)* `name.ext`, where each option is a token
 * that starts with `-`, and the name is a run of `[\w.-]` after white space that starts with a word character and ends
 * at a {@link SCRIPT_END}. So each match ends at a script end E whose name run is such a token, and starts at most
 * three tokens before the options in front of that name (`poetry run python`). A token that is such a name starts
 * with a word character, so no match passes over it: a match ending at a later script end starts after E. The scan
 * takes the script ends in order, tries the regex at each position from that bound to the name, and goes on after E
 * when none matches.
 */
export function scriptRunMatches(text: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  let pos = 0;
  SCRIPT_END.lastIndex = 0;
  for (let end = SCRIPT_END.exec(text); end; end = SCRIPT_END.exec(text)) {
    const e = end.index;
    if (e < pos) continue;
    let nameStart = e;
    while (nameStart > 0 && isNameCode(text.charCodeAt(nameStart - 1))) nameStart--;
    // The name starts with a word character right after white space; otherwise no match ends here.
    if (nameStart === 0 || nameStart >= e || !isSpace(text[nameStart - 1]) || text[nameStart] === '.' || text[nameStart] === '-') continue;
    let found: RegExpExecArray | null = null;
    for (let at = earliestStart(text, nameStart, pos); at <= nameStart && !found; at++) {
      RUN_SCRIPT_AT.lastIndex = at;
      found = RUN_SCRIPT_AT.exec(text);
    }
    if (found) {
      out.push(found);
      pos = found.index + found[0].length;
      SCRIPT_END.lastIndex = Math.max(SCRIPT_END.lastIndex, pos);
    } else pos = e + 1;
  }
  return out;
}

/**
 * The earliest a match whose name starts at `nameStart` can start, and not before `from`: back over the `-` options,
 * then three more tokens. Each token is passed over by the scans of at most three script ends, so all are linear.
 */
function earliestStart(text: string, nameStart: number, from: number): number {
  let at = nameStart;
  let others = 0;
  for (;;) {
    while (at > from && isSpace(text[at - 1])) at--;
    if (at <= from) return from;
    let tokenStart = at;
    while (tokenStart > from && !isSpace(text[tokenStart - 1])) tokenStart--;
    at = tokenStart;
    if (text[tokenStart] !== '-' && ++others === 3) return tokenStart;
  }
}
