// The arguments of a user's script run, typed on one line. No shell runs the script, so nothing here expands
// ($, globs, ~ stay as typed): quotes only group words, a backslash takes the next character as it is.
import { splitArguments } from '../../core/catalog/skillArguments';

/** Splits a line into arguments; an unterminated quote is an error that says so. */
export function splitArgs(line: string): string[] {
  return splitArguments(line, { strict: true });
}

/** The arguments as one line that `splitArgs` reads back to the same list. */
export function joinArgs(args: readonly string[]): string {
  return args.map((a) => (a !== '' && /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'"'"'`)}'`)).join(' ');
}
