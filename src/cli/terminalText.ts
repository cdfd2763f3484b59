/**
 * The one escaping of what the CLI prints as text. Folder names, frontmatter keys and values, messages that quote
 * them: any of these may hold control characters, and printed raw a newline then `::error …` becomes a GitHub
 * Actions workflow command, and ESC or OSC sequences reach the terminal (colours, titles, hyperlinks, or worse).
 * Every text and `--format github` printer passes what it prints through these functions.
 */

/** C0 controls, DEL and C1 controls (U+0080–U+009F, where CSI and OSC have one-character forms). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/** The same, except line feed: for text already made of lines. */
const CONTROL_BUT_LF = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
/** The same, except CR and LF, which workflow commands encode themselves. */
const CONTROL_BUT_CRLF = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

function escapeOne(c: string): string {
  return NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/** One field (a name, a path, a message) as printable text on one line: every control character written as `\n`, `\e`, `\x07`... */
export function printable(s: string): string {
  return s.replace(CONTROL, escapeOne);
}

/** A block of lines as printable text: line breaks kept, every other control character escaped. */
export function printableLines(s: string): string {
  return s.replace(CONTROL_BUT_LF, escapeOne);
}

/**
 * A GitHub Actions workflow command's message: control characters escaped (ESC included, which GitHub passes to
 * the log), then `%`, CR and LF encoded as the workflow-command rules ask.
 */
export function workflowMessage(s: string): string {
  return s.replace(CONTROL_BUT_CRLF, escapeOne).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value (`file=`, `title=`): as a message, and `:` and `,` encoded too. */
export function workflowProperty(s: string): string {
  return workflowMessage(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
