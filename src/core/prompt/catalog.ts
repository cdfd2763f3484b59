import { escapeXml, escapeXmlText, renderSkillEntry } from './availableSkills';
import { compareStrings } from '../text/compareStrings';
import { indexOfCatalog, rankCatalog, type CatalogRanking } from '../index/rankCatalog';
import type { SkillIndex } from '../index/skillIndex';
import type { Mentions } from './skillRanking';
import { fitsTokens } from './tokenCounter';
import type { CatalogBudget, CatalogSkill, TokenCounter } from './promptTypes';

/** The rendered `<available_skills>` block and what it left out. */
export interface CatalogBlock {
  text: string;
  shown: string[];
  omitted: number;
  tokens: number;
  mentions: Mentions;
  /** Every skill's name in rank order (the order in which they were taken when the budget cut); computed when read. */
  ranked: string[];
  /** The ranking behind the block (scores per skill), for explanations. */
  ranking: CatalogRanking;
  /** The skills shown, in the order the block lists them (the described ones, then the ones listed by name only). */
  shownSkills: CatalogSkill[];
  /** How many of the shown skills are listed by name only (in `<more_skills>`, after the described ones). */
  namedOnly: number;
}

export { escapeXml };

/** One `<skill>` entry; descriptions are flattened to one line so entries are easy to count and cut. `short`: its description cut to a first sentence ({@link shortDescription}). */
export function renderCatalogEntry(s: CatalogSkill, hideLocation = false, short = false): string {
  return renderSkillEntry({ name: s.name, description: short ? shortDescription(s.description) : s.description, location: hideLocation ? undefined : s.location });
}

/** Longest description of an entry listed below the full ones (its first sentence, cut at a word to fit). */
export const SHORT_DESCRIPTION_CHARS = 80;

/**
 * A description cut to its first sentence and at most {@link SHORT_DESCRIPTION_CHARS} characters (at a word
 * boundary, ending in an ellipsis when cut inside the sentence): lower in the ranking a skill is listed by what
 * it is for, so that more skills fit the budget; the model reads the whole description when it loads the skill.
 */
export function shortDescription(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  const sentence = end >= 0 ? flat.slice(0, end + 1) : flat;
  if (sentence.length <= SHORT_DESCRIPTION_CHARS) return sentence;
  const room = sentence.slice(0, SHORT_DESCRIPTION_CHARS - 1);
  const space = room.lastIndexOf(' ');
  return `${(space > SHORT_DESCRIPTION_CHARS / 2 ? room.slice(0, space) : room).replace(/[\s,;:.-]+$/, '')}…`;
}

/** Share of the budget filled with full descriptions before the rest of the ranking is listed with short ones. */
export const FULL_ENTRY_SHARE = 0.3;
/** Share of the budget filled with described entries (full, then short) before the rest is listed by name only. */
export const DESCRIBED_SHARE = 0.6;

/** The tag that lists skills by name only, one a line, after the described entries. */
export const NAMES_OPEN = '<more_skills>';
export const NAMES_CLOSE = '</more_skills>';

/** A skill as listed by name only: its name on one line. */
export const namedEntry = (s: CatalogSkill): string => escapeXmlText(s.name.replace(/\s+/g, ' ').trim());

/**
 * The line that says how many skills were left out and how to reach them: with `findTool`, search the rest with
 * it; a skill the user names is loaded by its exact name either way.
 */
export function omittedLine(n: number, loadTool: string, findTool?: string, named = false): string {
  // Short: the line is paid for on every call, and its room is reserved before any skill is taken.
  const byName = named ? `The skills in ${NAMES_OPEN} are listed by name only: ${loadTool} loads one by that name${findTool ? `, ${findTool} shows what it is for` : ''}.` : '';
  if (n === 0) return `(${byName})`;
  const more = `${n} more skill${n === 1 ? ' is' : 's are'} installed but not listed here`;
  const lead = byName ? `${byName} ` : '';
  if (findTool) return `(${lead}${more}. Search them with ${findTool} (the task in your own words) before working without a skill; if the user names one, call ${loadTool} with its exact name.)`;
  return `(${lead}${more} to save context. If the user names one, call ${loadTool} with its exact name; the user can list them all in the Skills view or with \`agent-skills list\`.)`;
}

/** How the block is cut and worded. */
export interface CatalogRenderOptions {
  hideLocations?: boolean;
  /** How the model loads a skill (a tool name, or how to read it). */
  loadTool: string;
  /** The search tool the closing line points to when skills were left out; omitted when none is offered. */
  findTool?: string;
  /** The skill index holding these skills (by id, else location, else name); omitted: one is built for this call. */
  index?: SkillIndex;
  /**
   * Shares of the budget (0..1) filled with whole descriptions, then with described entries of any kind, before
   * the rest of the ranking is listed by name only; default {@link FULL_ENTRY_SHARE} and {@link DESCRIBED_SHARE}.
   */
  shares?: { full?: number; described?: number };
}

/** One tier of the packing: how an entry is written, what it costs besides itself, and where its share ends. */
type Tier = 'full' | 'short' | 'named';

/**
 * Renders `<available_skills>` within the budget. When everything fits, every skill is shown. When not,
 * skills are taken in the index's rank order (mentions, relevance, recency, scope, name), skipping any that do
 * not fit: the first with their whole description, the next with their first sentence, and (when the
 * described share is under the whole budget) the rest by name only in `<more_skills>`; a closing line says how
 * many were left out and how to search and load them. Entries are printed sorted by name within each part, so
 * the block is byte-identical for the same set whatever the ranking was.
 */
export function renderCatalog(skills: readonly CatalogSkill[], request: string | undefined, budget: CatalogBudget, counter: TokenCounter, opts: CatalogRenderOptions): CatalogBlock {
  const open = '<available_skills>';
  const close = '</available_skills>';
  const entries = new Map<CatalogSkill, string>();
  const full = (s: CatalogSkill): string => {
    let e = entries.get(s);
    if (e === undefined) entries.set(s, (e = renderCatalogEntry(s, opts.hideLocations)));
    return e;
  };
  // The entry each chosen skill is listed with (full, or short when it was taken past the full share).
  const listed = new Map<CatalogSkill, string>();
  const entry = (s: CatalogSkill): string => listed.get(s) ?? full(s);
  const maxTokens = budget.maxTokens ?? Number.POSITIVE_INFINITY;
  const maxChars = budget.maxChars ?? Number.POSITIVE_INFINITY;
  const frameChars = open.length + close.length + 2;
  const frame = `${open}\n${close}`;
  const ranking = rankCatalog(opts.index ?? indexOfCatalog(skills), request, skills);
  let chosen: CatalogSkill[];
  const named: CatalogSkill[] = [];
  // Each entry costs its own tokens and one for its line break; the frame costs its own.
  if (fitsAll(skills, full, frameChars, frame, maxChars, maxTokens, counter)) {
    chosen = [...skills];
  } else {
    const frameTokens = counter.count(frame);
    // Reserve room for the omitted line (its count has at most as many digits as the total).
    const reserve = omittedLine(skills.length, opts.loadTool, opts.findTool);
    let chars = frameChars + reserve.length + 1;
    let tokens = frameTokens + counter.count(reserve) + 1;
    chosen = [];
    // Stop reading the ranking when no entry could fit any more, or after a long run of entries too big for
    // the room left (a large catalog is not counted whole to fill the last few tokens).
    let skipped = 0;
    // The best matches get their whole description until a share of the budget is used; the ones after are
    // listed by their first sentence, so that more of the ranking is in front of the model; past the described
    // share, by name only (a name costs a few tokens, a short entry about 35 with its tags).
    const fullShare = opts.shares?.full ?? FULL_ENTRY_SHARE;
    const describedShare = opts.shares?.described ?? DESCRIBED_SHARE;
    const tierOf = (): Tier => {
      const used = Math.max(tokens / maxTokens, chars / maxChars);
      return used < fullShare ? 'full' : used < describedShare ? 'short' : 'named';
    };
    let minTokens = MIN_ENTRY_TOKENS;
    let minChars = MIN_ENTRY_CHARS;
    for (const s of ranking.order()) {
      if (maxTokens - tokens < minTokens || maxChars - chars < minChars || skipped >= MAX_SKIPPED) break;
      const tier = tierOf();
      if (tier === 'named' && !named.length) {
        // The list of names opens: its tags and the closing line's word on it are paid for once.
        const withNames = omittedLine(skills.length, opts.loadTool, opts.findTool, true);
        const extraChars = NAMES_OPEN.length + NAMES_CLOSE.length + 2 + withNames.length - reserve.length;
        const extraTokens = counter.count(`${NAMES_OPEN}\n${NAMES_CLOSE}`) + 1 + counter.count(withNames) - counter.count(reserve);
        if (tokens + extraTokens + MIN_NAME_TOKENS > maxTokens || chars + extraChars + MIN_NAME_CHARS > maxChars) break;
        tokens += extraTokens;
        chars += extraChars;
        minTokens = MIN_NAME_TOKENS;
        minChars = MIN_NAME_CHARS;
      }
      const e = tier === 'named' ? namedEntry(s) : tier === 'short' ? renderCatalogEntry(s, opts.hideLocations, true) : full(s);
      const t = chars + e.length + 1 > maxChars ? -1 : counter.count(e) + 1;
      if (t < 0 || tokens + t > maxTokens) {
        skipped++;
        continue;
      }
      skipped = 0;
      chars += e.length + 1;
      tokens += t;
      if (tier === 'named') named.push(s);
      else chosen.push(s);
      if (tier === 'short') listed.set(s, e);
    }
    // Every skill taken and room left over: the best of the ones listed by name get their first sentence back.
    if (named.length && chosen.length + named.length === skills.length) {
      // The closing line reserved said how many were left out; with none left out it is shorter.
      const reserved = omittedLine(skills.length, opts.loadTool, opts.findTool, true);
      const closing = omittedLine(0, opts.loadTool, opts.findTool, true);
      tokens -= counter.count(reserved) - counter.count(closing);
      chars -= reserved.length - closing.length;
      let promoted = 0;
      for (const s of named) {
        const e = renderCatalogEntry(s, opts.hideLocations, true);
        const n = namedEntry(s);
        const t = counter.count(e) - counter.count(n);
        if (tokens + t > maxTokens || chars + e.length - n.length > maxChars) break;
        tokens += t;
        chars += e.length - n.length;
        chosen.push(s);
        listed.set(s, e);
        promoted++;
      }
      named.splice(0, promoted);
    }
  }
  const byName = (a: CatalogSkill, b: CatalogSkill) => compareStrings(a.name, b.name) || compareStrings(a.location ?? '', b.location ?? '');
  chosen.sort(byName);
  named.sort(byName);
  const omitted = skills.length - chosen.length - named.length;
  const names = named.length ? [NAMES_OPEN, ...named.map(namedEntry), NAMES_CLOSE] : [];
  const closing = omitted || named.length ? [omittedLine(omitted, opts.loadTool, opts.findTool, named.length > 0)] : [];
  const text = [open, ...chosen.map(entry), ...names, ...closing, close].join('\n');
  let tokens: number | undefined;
  let ranked: string[] | undefined;
  const shownSkills = [...chosen, ...named];
  // Counted when read: a caller that only needs the text loads no encoder.
  return {
    text,
    shown: shownSkills.map((s) => s.name),
    shownSkills,
    namedOnly: named.length,
    omitted,
    get tokens() {
      return (tokens ??= counter.count(text));
    },
    mentions: ranking.mentions,
    get ranked() {
      return (ranked ??= ranking.all().map((s) => s.name));
    },
    ranking,
  };
}

/** No `<skill>` entry is smaller than this (its tags alone are more) in o200k tokens and in characters. */
const MIN_ENTRY_TOKENS = 10;
const MIN_ENTRY_CHARS = 60;
/** No name listed alone is smaller than this (a word and its line break). */
const MIN_NAME_TOKENS = 2;
const MIN_NAME_CHARS = 2;
/** Entries in a row that may be skipped for size before the rest of the ranking is left out too. */
const MAX_SKIPPED = 256;

/** True when every entry fits both limits (checked from the counter's cheap bound first, as one list). */
function fitsAll(
  skills: readonly CatalogSkill[],
  entry: (s: CatalogSkill) => string,
  frameChars: number,
  frame: string,
  maxChars: number,
  maxTokens: number,
  counter: TokenCounter,
): boolean {
  if (skills.length * MIN_ENTRY_TOKENS > maxTokens) return false;
  let chars = frameChars;
  for (const s of skills) {
    chars += entry(s).length + 1;
    if (chars > maxChars) return false;
  }
  return fitsTokens(counter, [frame, ...skills.map(entry)], maxTokens + 1, 1);
}
