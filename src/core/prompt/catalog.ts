import { escapeXml, renderSkillEntry } from './availableSkills';
import { compareStrings } from '../text/compareStrings';
import { rankSkills, type Mentions } from './skillRanking';
import { fitsTokens } from './tokenCounter';
import type { CatalogBudget, CatalogSkill, TokenCounter } from './promptTypes';

/** The rendered `<available_skills>` block and what it left out. */
export interface CatalogBlock {
  text: string;
  shown: string[];
  omitted: number;
  tokens: number;
  mentions: Mentions;
  /** Every skill's name in rank order (the order in which they were taken when the budget cut). */
  ranked: string[];
}

export { escapeXml };

/** One `<skill>` entry; descriptions are flattened to one line so entries are easy to count and cut. */
export function renderCatalogEntry(s: CatalogSkill, hideLocation = false): string {
  return renderSkillEntry({ name: s.name, description: s.description, location: hideLocation ? undefined : s.location });
}

/** The line that says how many skills were left out and how to reach them. */
export function omittedLine(n: number, loadTool: string): string {
  return `(${n} more skill${n === 1 ? ' is' : 's are'} installed but not listed here to save context. If the user names one, call ${loadTool} with its exact name; the user can list them all in the Skills view or with \`agent-skills list\`.)`;
}

/**
 * Renders `<available_skills>` within the budget. When everything fits, every skill is shown. When not,
 * skills are taken in rank order (mentions, BM25 relevance, recency, scope, name), skipping any that do
 * not fit, and a closing line says how many were left out. Shown entries are always printed sorted by
 * name, so the block is byte-identical for the same set whatever the ranking was.
 */
export function renderCatalog(
  skills: readonly CatalogSkill[],
  request: string | undefined,
  budget: CatalogBudget,
  counter: TokenCounter,
  opts: { hideLocations?: boolean; loadTool: string },
): CatalogBlock {
  const open = '<available_skills>';
  const close = '</available_skills>';
  const entries = new Map<CatalogSkill, string>(skills.map((s) => [s, renderCatalogEntry(s, opts.hideLocations)]));
  const maxTokens = budget.maxTokens ?? Number.POSITIVE_INFINITY;
  const maxChars = budget.maxChars ?? Number.POSITIVE_INFINITY;
  const frameChars = open.length + close.length + 2;
  const frame = `${open}\n${close}`;
  const all = [...entries.values()];
  const fullChars = frameChars + all.reduce((n, e) => n + e.length + 1, 0);
  const { ranked, mentions } = rankSkills(request, skills);
  let chosen: CatalogSkill[];
  // Each entry costs its own tokens and one for its line break; the frame costs its own.
  if (fullChars <= maxChars && fitsTokens(counter, [frame, ...all], maxTokens + 1, 1)) {
    chosen = [...skills];
  } else {
    const frameTokens = counter.count(frame);
    // Reserve room for the omitted line (its count has at most as many digits as the total).
    const reserve = omittedLine(skills.length, opts.loadTool);
    let chars = frameChars + reserve.length + 1;
    let tokens = frameTokens + counter.count(reserve) + 1;
    chosen = [];
    for (const s of ranked) {
      const e = entries.get(s) as string;
      const t = counter.count(e) + 1;
      if (chars + e.length + 1 > maxChars || tokens + t > maxTokens) continue;
      chars += e.length + 1;
      tokens += t;
      chosen.push(s);
    }
  }
  chosen.sort((a, b) => compareStrings(a.name, b.name) || compareStrings(a.location ?? '', b.location ?? ''));
  const omitted = skills.length - chosen.length;
  const text = [open, ...chosen.map((s) => entries.get(s) as string), ...(omitted ? [omittedLine(omitted, opts.loadTool)] : []), close].join('\n');
  let tokens: number | undefined;
  // Counted when read: a caller that only needs the text loads no encoder.
  return {
    text,
    shown: chosen.map((s) => s.name),
    omitted,
    get tokens() {
      return (tokens ??= counter.count(text));
    },
    mentions,
    ranked: ranked.map((s) => s.name),
  };
}
