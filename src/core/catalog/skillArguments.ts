/** How arguments were applied to a skill's instructions. */
export interface ResolvedArguments {
  /** The raw argument string (`$ARGUMENTS`). */
  raw: string;
  /** Positional arguments (`$0`, `$1`, … and `$ARGUMENTS[0]`, …), split shell-style with quotes removed. */
  positional: string[];
  /** Placeholders found in the instructions, e.g. `$ARGUMENTS`, `$0`. */
  placeholders: string[];
  /** Placeholders left as written because no such argument was given. */
  unresolved: string[];
  /** True when the instructions had no placeholder and the arguments were appended as `ARGUMENTS: …`. */
  appended: boolean;
}

/**
 * Splits an argument string like a shell does for words: whitespace separates, '…' and "…" group, backslash escapes.
 * Nothing expands ($, globs, ~ stay as typed). With `strict`, an unterminated quote throws instead of running to the end.
 */
export function splitArguments(raw: string, opts: { strict?: boolean } = {}): string[] {
  const out: string[] = [];
  let cur = '';
  let has = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < raw.length) cur += raw[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      has = true;
    } else if (c === '\\' && i + 1 < raw.length) {
      cur += raw[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  // Strict (a line a person typed): an unterminated quote is an error, not a word that runs to the end.
  if (quote && opts.strict) throw new Error(`The arguments end inside a ${quote === '"' ? 'double' : 'single'} quote; close it or remove it.`);
  if (has) out.push(cur);
  return out;
}

const PLACEHOLDER = /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS(?![A-Za-z0-9_[])|\$(\d+)(?![0-9])/g;

/**
 * Substitutes arguments into skill instructions the way Claude Code does for skills and commands:
 * `$ARGUMENTS` is the whole argument string as given, `$ARGUMENTS[N]` and its shorthand `$N` the N-th
 * argument counted from 0 (`$0` is the first). A positional placeholder without a matching argument stays
 * as written. When the instructions contain no placeholder and arguments were given, they are appended
 * as a final `ARGUMENTS: <raw>` line. Named arguments declared in frontmatter are not supported.
 */
export function substituteArguments(body: string, args: string | readonly string[] | undefined): { text: string; resolved: ResolvedArguments } {
  const positional = args === undefined ? [] : typeof args === 'string' ? splitArguments(args) : [...args];
  const raw = args === undefined ? '' : typeof args === 'string' ? args : args.map((a) => (/[\s"'\\]/.test(a) || a === '' ? JSON.stringify(a) : a)).join(' ');
  const placeholders = new Set<string>();
  const unresolved = new Set<string>();
  const text = body.replace(PLACEHOLDER, (m, idx: string | undefined, short: string | undefined) => {
    placeholders.add(m);
    const n = idx ?? short;
    if (n === undefined) return raw;
    const v = positional[Number(n)];
    if (v === undefined) {
      unresolved.add(m);
      return m;
    }
    return v;
  });
  const appended = placeholders.size === 0 && raw.trim() !== '';
  return {
    text: appended ? `${text}${text.endsWith('\n') ? '' : '\n'}\nARGUMENTS: ${raw}\n` : text,
    resolved: { raw, positional, placeholders: [...placeholders], unresolved: [...unresolved], appended },
  };
}
