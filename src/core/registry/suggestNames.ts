import { compareStrings } from '../text/compareStrings';

/** Up to `max` of `candidates` closest to `query` (edit distance, prefixes and substrings count as close). */
export function suggestNames(query: string, candidates: Iterable<string>, max = 3): string[] {
  const q = query.toLowerCase();
  const scored: { name: string; score: number }[] = [];
  for (const name of new Set(candidates)) {
    const n = name.toLowerCase();
    const d = editDistance(q, n);
    const limit = Math.max(2, Math.floor(Math.max(q.length, n.length) / 3));
    const contains = q.length >= 3 && (n.includes(q) || q.includes(n));
    if (d <= limit || contains) scored.push({ name, score: contains ? Math.min(d, 1) : d });
  }
  scored.sort((a, b) => a.score - b.score || compareStrings(a.name, b.name));
  return scored.slice(0, max).map((s) => s.name);
}

function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
