/**
 * Catalog rules: findings about a skill that depend on the other skills beside it. `skills-confusable`: two skills
 * whose names and descriptions would route the same requests to either, measured with the skill index (each
 * skill's name and description searched as a request: how close the other comes to the skill's own score, both
 * ways). Reported on both SKILL.md files, with the words that make each one distinct.
 */
import { DEFAULT_WEIGHTS, SkillIndex } from '../../index/skillIndex';
import { indexTerms } from '../../index/indexTokens';
import { rule, type RuleInfo } from './ruleInfo';

export const CATALOG_RULES: readonly RuleInfo[] = [
  rule(
    'skills-confusable',
    'off',
    'warning',
    'Two skills of the same catalog have names and descriptions that would route the same requests to either.',
    'A model picks a skill from its name and description. When two skills read alike, requests go to either one by chance. Say in each description what sets it apart (its inputs, its tools, when to use it rather than the other), merge them, or remove one. The finding names the other skill and the words only each one has; closeness is how near the other comes to the skill\'s own score when its description is searched as a request, the lower of both ways.',
    { options: { closeness: { default: 0.5, description: 'Closeness (0 to 1) from which two skills are reported.' } } },
  ),
];

/** The closeness from which a pair is reported (option `closeness`). */
export const DEFAULT_CONFUSABLE_CLOSENESS = 0.5;

/** Most skills compared in one catalog (each is searched once; a larger catalog is compared in its first part). */
export const MAX_CONFUSABLE_SKILLS = 5000;

/** A skill as the rule reads it. */
export interface CatalogEntry {
  /** Unique key (a folder path, an id). */
  key: string;
  name: string;
  description: string;
}

/** Two skills that would be confused. */
export interface ConfusablePair {
  a: CatalogEntry;
  b: CatalogEntry;
  /** 0..1: the lower of how close each comes to the other's own score. */
  closeness: number;
  /** Description words only `a` has (most distinctive first), and only `b` has. */
  onlyA: string[];
  onlyB: string[];
}

const textOf = (s: CatalogEntry) => `${s.name.replace(/[-_]/g, ' ')} ${s.description}`;

/** Every pair of skills at or above `closeness`, closest first. */
export function findConfusableSkills(skills: readonly CatalogEntry[], closeness = DEFAULT_CONFUSABLE_CLOSENESS): ConfusablePair[] {
  const list = skills.slice(0, MAX_CONFUSABLE_SKILLS).filter((s) => s.description.trim() !== '');
  const byKey = new Map(list.map((s) => [s.key, s]));
  // Words are weighed as in a catalog of at least 50 skills, so two skills of a small folder that share their
  // key words are still close.
  const index = new SkillIndex({ ...DEFAULT_WEIGHTS, minCatalogSize: 50 });
  for (const s of list) index.put({ id: s.key, name: s.name, description: s.description });
  // near.get(a).get(b): b's score for a's text over a's own score.
  const near = new Map<string, Map<string, number>>();
  for (const s of list) {
    const hits = index.search(textOf(s), 8);
    const own = hits.find((h) => h.id === s.key)?.score ?? 0;
    const m = new Map<string, number>();
    if (own > 0) for (const h of hits) if (h.id !== s.key) m.set(h.id, Math.min(1, h.score / own));
    near.set(s.key, m);
  }
  const out: ConfusablePair[] = [];
  for (const [a, m] of near) {
    for (const [b, ab] of m) {
      if (a >= b) continue;
      const ba = near.get(b)?.get(a);
      if (ba === undefined) continue;
      const c = Math.min(ab, ba);
      if (c < closeness) continue;
      const A = byKey.get(a) as CatalogEntry;
      const B = byKey.get(b) as CatalogEntry;
      // Each names what sets it apart and says it (`ruby-…` "… in Ruby" beside `swift-…` "… in Swift"): a request
      // that names either goes to that one.
      if (namedApart(A, B) && namedApart(B, A)) continue;
      out.push({ a: A, b: B, closeness: Math.round(c * 100) / 100, onlyA: distinctWords(index, A, B), onlyB: distinctWords(index, B, A) });
    }
  }
  return out.sort((x, y) => y.closeness - x.closeness || x.a.key.localeCompare(y.a.key) || x.b.key.localeCompare(y.b.key));
}

/** True when a word of `self`'s name that `other`'s name lacks is also in `self`'s description and nowhere in `other`'s text. */
function namedApart(self: CatalogEntry, other: CatalogEntry): boolean {
  const theirs = new Set(indexTerms(textOf(other)));
  const described = new Set(indexTerms(self.description));
  return indexTerms(self.name.replace(/[-_]/g, ' ')).some((t) => described.has(t) && !theirs.has(t));
}

/** Words of `self`'s description that `other`'s lacks, rarest in the catalog first (as written, not stemmed). */
function distinctWords(index: SkillIndex, self: CatalogEntry, other: CatalogEntry, max = 5): string[] {
  const theirs = new Set(indexTerms(textOf(other)));
  const seen = new Set<string>();
  const words: { word: string; idf: number }[] = [];
  for (const w of textOf(self).split(/[^\p{L}\p{N}]+/u)) {
    const [term] = indexTerms(w);
    if (!term || theirs.has(term) || seen.has(term)) continue;
    seen.add(term);
    words.push({ word: w, idf: index.idf(term) });
  }
  return words.sort((x, y) => y.idf - x.idf).slice(0, max).map((x) => x.word);
}

/** The finding's message on `self`'s SKILL.md. */
export function confusableMessage(self: CatalogEntry, other: CatalogEntry, closeness: number, onlySelf: readonly string[], onlyOther: readonly string[], otherWhere: string): string {
  const mine = onlySelf.length ? `only '${self.name}' says ${onlySelf.map((w) => `"${w}"`).join(', ')}` : `'${self.name}' says nothing '${other.name}' does not`;
  const theirs = onlyOther.length ? `only '${other.name}' says ${onlyOther.map((w) => `"${w}"`).join(', ')}` : `'${other.name}' says nothing more`;
  return `Skill '${self.name}' would be confused with '${other.name}' (${otherWhere}): their names and descriptions would route the same requests to either (closeness ${closeness.toFixed(2)}). What sets them apart: ${mine}; ${theirs}. Say in the description when to use this skill rather than '${other.name}', or merge the two.`;
}
