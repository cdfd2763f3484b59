/**
 * The one binary search of the tree. `before` must hold for a leading run of the indices 0..count-1 and for none
 * after it (entries of a sorted list below a value, lines starting at or before an offset, keys up to a cursor's);
 * the answer is where that run ends: the first index at which `before` is false, or `count` when it never is.
 *
 * It asks `before` at most ⌈log2(count + 1)⌉ times, and only about indices in [0, count). The midpoint is taken
 * from the range's width, never from the sum of its ends, so any count up to `Number.MAX_SAFE_INTEGER` is searched
 * correctly (the usual `(lo + hi) >>> 1` wraps past 2^32, `>> 1` past 2^31); widths that fit 31 bits are halved
 * by a shift, as cheap as the copies it replaced. A count that is not a whole number from 0 up is refused.
 */
export function lowerBound(count: number, before: (i: number) => boolean): number {
  if (!(count >= 0 && count <= Number.MAX_SAFE_INTEGER && count % 1 === 0)) refuseCount(count);
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const width = hi - lo;
    const mid = lo + (width <= 0x7fffffff ? width >> 1 : Math.floor(width / 2));
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Kept out of {@link lowerBound}'s body so the search stays small enough to be inlined where it is called. */
function refuseCount(count: number): never {
  throw new RangeError(`lowerBound: count must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, got ${count}`);
}
