/**
 * The deepest nesting of `[` and `{` outside strings in JSON text, counting no further than `limit + 1`: linear,
 * no recursion, nothing parsed. Every bounded JSON reader asks it before a parser that recurses per level (trigger
 * and eval sets, trigger reports, plugin manifests). A stray closer does not lower the count below zero, so text
 * that opens deep after closers it never opened still counts as deep.
 */
export function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth = Math.max(0, depth - 1);
  }
  return deepest;
}
