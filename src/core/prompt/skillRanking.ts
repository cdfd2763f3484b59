import type { CatalogSkill } from './promptTypes';
import { compareStrings } from '../text/compareStrings';
import { sourceRank } from '../sources';

/** Skills the user names in the request: `$name`/`#name` (explicit) or the bare name as a word. */
export interface Mentions {
  /** Named with a `$` or `#` sigil, in order of appearance. */
  explicit: string[];
  /** Named as a plain word (hyphens included), in order of appearance; excludes explicit ones. */
  named: string[];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Finds the skills the request names. Names compare case-insensitively. */
export function findMentions(request: string, names: readonly string[]): Mentions {
  const hits: { name: string; at: number; explicit: boolean }[] = [];
  for (const name of new Set(names)) {
    if (!name) continue;
    const re = new RegExp(`(^|[^\\w-])([$#]?)${escape(name)}(?![\\w-])`, 'gi');
    let best: { at: number; explicit: boolean } | undefined;
    for (const m of request.matchAll(re)) {
      const explicit = m[2] !== '';
      const at = (m.index ?? 0) + m[1].length;
      if (!best || (explicit && !best.explicit)) best = { at, explicit };
    }
    if (best) hits.push({ name, ...best });
  }
  hits.sort((a, b) => a.at - b.at || a.name.localeCompare(b.name));
  return { explicit: hits.filter((h) => h.explicit).map((h) => h.name), named: hits.filter((h) => !h.explicit).map((h) => h.name) };
}

const STOP = new Set(
  'a an and are as at be by can do for from how i in is it its me my of on or our please should that the this to use used uses using we what when which with you your'.split(' '),
);

/** Lowercase word tokens without stop words; hyphenated names also yield their parts. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/[^a-z0-9-]+/)) {
    const word = raw.replace(/^-+|-+$/g, '');
    if (!word) continue;
    const parts = word.split('-').filter(Boolean);
    if (parts.length > 1) out.push(word);
    for (const p of parts) if (!STOP.has(p) && p.length > 1) out.push(stem(p));
  }
  return out;
}

// A light suffix strip so "documents" matches "document" and "processing" matches "process".
function stem(w: string): string {
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** Okapi BM25 of each skill's name + description against the query; the name counts twice. */
export function bm25Scores(query: string, skills: readonly CatalogSkill[], k1 = 1.2, b = 0.75): number[] {
  const q = [...new Set(tokenize(query))];
  if (!q.length || !skills.length) return skills.map(() => 0);
  const docs = skills.map((s) => {
    const name = tokenize(s.name);
    return [...name, ...name, ...tokenize(s.description)];
  });
  const avg = docs.reduce((n, d) => n + d.length, 0) / docs.length || 1;
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length;
  return docs.map((d) => {
    const tf = new Map<string, number>();
    for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
    let score = 0;
    for (const t of q) {
      const f = tf.get(t);
      if (!f) continue;
      const dfi = df.get(t) ?? 0;
      const idf = Math.log(1 + (n - dfi + 0.5) / (dfi + 0.5));
      score += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / avg));
    }
    return score;
  });
}

/**
 * Orders skills for inclusion when the catalog must be cut (seed 002's selection strategy):
 * explicit `$`/`#` mentions, then plain-name mentions, then BM25 relevance to the request, then recency
 * of use, then source precedence (workspace before user before extension), then name. Same inputs, same order.
 */
export function rankSkills(request: string | undefined, skills: readonly CatalogSkill[]): { ranked: CatalogSkill[]; mentions: Mentions } {
  const mentions = request ? findMentions(request, skills.map((s) => s.name)) : { explicit: [], named: [] };
  const scores = request ? bm25Scores(request, skills) : skills.map(() => 0);
  const mentionRank = (name: string) => {
    const e = mentions.explicit.indexOf(name);
    if (e >= 0) return e;
    const m = mentions.named.indexOf(name);
    return m >= 0 ? 1000 + m : Number.MAX_SAFE_INTEGER;
  };
  const order = skills.map((s, i) => ({ s, score: scores[i], mention: mentionRank(s.name) }));
  order.sort(
    (a, b) =>
      a.mention - b.mention ||
      b.score - a.score ||
      (b.s.lastUsed ?? 0) - (a.s.lastUsed ?? 0) ||
      sourceRank(a.s.scope) - sourceRank(b.s.scope) ||
      compareStrings(a.s.name, b.s.name) ||
      compareStrings(a.s.location ?? '', b.s.location ?? ''),
  );
  return { ranked: order.map((o) => o.s), mentions };
}
