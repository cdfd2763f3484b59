/** Levenshtein distance, stopping early once it passes `max` (returns max + 1 then). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/**
 * The one existing path close to a missing one: the same file name in another folder, or a path within a
 * few edits (a third of its length, at most 3). Undefined when none or more than one is equally close.
 */
export function closestPath(missing: string, existing: readonly string[]): string | undefined {
  const base = missing.slice(missing.lastIndexOf('/') + 1).toLowerCase();
  const sameName = existing.filter((p) => p.slice(p.lastIndexOf('/') + 1).toLowerCase() === base);
  if (sameName.length === 1) return sameName[0];
  // The edit distance costs the product of the lengths: no path a skill really holds is this long.
  if (missing.length > 255) return undefined;
  const max = Math.min(3, Math.floor(missing.length / 3));
  let best: string | undefined;
  let bestD = max + 1;
  let tie = false;
  for (const p of existing) {
    const d = editDistance(missing.toLowerCase(), p.toLowerCase(), max);
    if (d < bestD) {
      best = p;
      bestD = d;
      tie = false;
    } else if (d === bestD) tie = true;
  }
  return best !== undefined && !tie ? best : undefined;
}
