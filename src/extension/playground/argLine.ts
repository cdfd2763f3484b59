// The arguments of a user's script run, typed on one line. No shell runs the script, so nothing here expands
// ($, globs, ~ stay as typed): quotes only group words, a backslash takes the next character as it is.

/** Splits a line into arguments; an unterminated quote is an error that says so. */
export function splitArgs(line: string): string[] {
  const out: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote) throw new Error(`The arguments end inside a ${quote === '"' ? 'double' : 'single'} quote; close it or remove it.`);
  if (inWord) out.push(word);
  return out;
}

/** The arguments as one line that `splitArgs` reads back to the same list. */
export function joinArgs(args: readonly string[]): string {
  return args.map((a) => (a !== '' && /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'"'"'`)}'`)).join(' ');
}
