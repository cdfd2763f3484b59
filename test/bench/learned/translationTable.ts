/**
 * A term-translation table learned from a catalog (for learnedRankExperiment.ts): for a name/description term t
 * and any term w of a skill, how strongly w's presence says t is in the skill's name or description (normalised
 * PMI over the skills it is counted on; Berger & Lafferty 1999 use such tables to match a query to a document in
 * other words). With it, a generator of candidates: skills by the IDF-weighted mass of their name/description
 * terms the request implies. Not part of the product.
 */
import { indexTerms, splitBody } from '../../../src/core/index/indexTokens';
import { unpack } from '../../../src/core/index/postingLists';
import type { SkillIndex } from '../../../src/core/index/skillIndex';
import type { PoolSkill } from '../routingData';

// The translation table: for a name/description term t and any term w of a skill, how strongly w's presence in a
// skill says t is in its name or description (normalised PMI over the T1 skills), kept when both are seen in at
// least MIN_CO skills together.

export const MIN_CO = Number(process.env.MIN_CO ?? 3);
export const MIN_NPMI = Number(process.env.MIN_NPMI ?? 0.25);
const PER_WORD = 20;
const BODY_TERMS = 60;

export interface Translation {
  /** word -> [name/description term, strength 0..1] */
  from: Map<string, [string, number][]>;
}

function skillTerms(s: PoolSkill): { nd: Set<string>; all: Map<string, number> } {
  const { headings, text } = splitBody(s.body);
  const nd = new Set([...indexTerms(s.name.replace(/[-_.]/g, ' ')), ...indexTerms(s.description)]);
  const all = new Map<string, number>();
  for (const t of [...nd, ...indexTerms(headings), ...indexTerms(text, 16_000)]) all.set(t, (all.get(t) ?? 0) + 1);
  return { nd, all };
}

export function learnTranslation(skills: PoolSkill[]): Translation {
  const read = skills.map(skillTerms);
  const n = read.length;
  const dfAll = new Map<string, number>();
  const dfNd = new Map<string, number>();
  for (const r of read) {
    for (const t of r.all.keys()) dfAll.set(t, (dfAll.get(t) ?? 0) + 1);
    for (const t of r.nd) dfNd.set(t, (dfNd.get(t) ?? 0) + 1);
  }
  const co = new Map<string, number>();
  for (const r of read) {
    // A skill's most telling words (tf x idf), so one long body does not add thousands of pairs.
    const ws = [...r.all.entries()]
      .filter(([w]) => (dfAll.get(w) ?? 0) >= MIN_CO && (dfAll.get(w) ?? 0) < n / 10)
      .map(([w, tf]) => [w, Math.log(1 + tf) * Math.log(n / (dfAll.get(w) ?? 1))] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, BODY_TERMS);
    const ts = [...r.nd].filter((t) => (dfNd.get(t) ?? 0) >= MIN_CO);
    for (const [w] of ws) for (const t of ts) if (t !== w) {
      const k = `${w}\u0000${t}`;
      co.set(k, (co.get(k) ?? 0) + 1);
    }
  }
  const from = new Map<string, [string, number][]>();
  for (const [k, c] of co) {
    if (c < MIN_CO) continue;
    const [w, t] = k.split('\u0000');
    const pwt = c / n;
    const npmi = Math.log(pwt / (((dfAll.get(w) ?? 1) / n) * ((dfNd.get(t) ?? 1) / n))) / -Math.log(pwt);
    if (npmi < MIN_NPMI) continue;
    let l = from.get(w);
    if (!l) from.set(w, (l = []));
    l.push([t, npmi]);
  }
  for (const [w, l] of from) from.set(w, l.sort((a, b) => b[1] - a[1]).slice(0, PER_WORD));
  return { from };
}

// ---------------------------------------------------------------------------------------------------------------
// A catalog's name/description terms, for the translation generator: term -> skills, and per skill its terms.

export interface NdIndex {
  skillsOf: Map<string, string[]>;
  termsOf: Map<string, string[]>;
}
export function ndIndex(index: SkillIndex): NdIndex {
  const skillsOf = new Map<string, string[]>();
  const termsOf = new Map<string, string[]>();
  const vocab = index.vocabulary;
  for (const id of index.ids()) {
    const d = index.tokensOf(id);
    if (!d) continue;
    const ts: string[] = [];
    for (let i = 0; i < d.terms.length; i++) {
      if (unpack(d.counts[i], 0) === 0 && unpack(d.counts[i], 1) === 0) continue;
      const t = vocab.termOf(d.terms[i]);
      if (t.includes(' ')) continue;
      ts.push(t);
      let l = skillsOf.get(t);
      if (!l) skillsOf.set(t, (l = []));
      l.push(id);
    }
    termsOf.set(id, ts);
  }
  return { skillsOf, termsOf };
}

/** Per name/description term, how strongly the request implies it: 1 if it says it, else its best translation. */
export function implied(tr: Translation, qterms: ReadonlySet<string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const w of qterms) {
    out.set(w, 1);
    for (const [t, s] of tr.from.get(w) ?? []) if ((out.get(t) ?? 0) < s) out.set(t, s);
  }
  return out;
}

/** The translation generator: skills by the IDF-weighted mass of their name/description terms the request implies. */
export function translationSearch(index: SkillIndex, nd: NdIndex, imp: Map<string, number>, limit: number): { id: string; score: number }[] {
  const score = new Map<string, number>();
  for (const [t, s] of imp) {
    const skills = nd.skillsOf.get(t);
    if (!skills || skills.length > index.size / 20) continue;
    const w = s * index.idf(t);
    for (const id of skills) score.set(id, (score.get(id) ?? 0) + w);
  }
  // Normalised by the skill's own name/description mass (square root: between a sum and a share).
  const out = [...score.entries()].map(([id, s]) => {
    let all = 0;
    for (const t of nd.termsOf.get(id) ?? []) all += index.idf(t);
    return { id, score: s / Math.sqrt(all || 1) };
  });
  out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return out.slice(0, limit);
}

