import type { CatalogSkill } from '../index/rankCatalog';
/**
 * A host-neutral chat history and the per-call composition contract (seed 000): the host maps its own
 * message types (e.g. VS Code's LanguageModelChatMessage parts) to these, and back.
 */
import type { CatalogToolId, RuntimeToolId } from '../tools/toolNames';
import type { SkillIndex } from '../index/skillIndex';
import type { CatalogRanking } from '../index/rankCatalog';

/** One entry of the chronological, append-only history. */
export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string }
  /** The model asked for a tool; `input` is the parsed arguments. */
  | { role: 'tool-call'; callId: string; name: string; input: unknown }
  /** The result the host returned for the call with the same `callId`. */
  | { role: 'tool-result'; callId: string; content: string; name?: string; isError?: boolean };

/** Where loaded skill bodies and docs go. */
export type ContentPlacement = 'instructions' | 'tool-results';

/** The name of each runtime tool as the model sees it, by the runtime's tool id (the ids are in src/core/tools/toolNames.ts). */
export type SkillToolNames = Record<RuntimeToolId, string>;

/** The names of the unified catalog's two tools (seed 003), when a host offers only those. */
export type CatalogToolNamesForPrompt = Record<CatalogToolId, string>;

/** Counts prompt tokens; the default uses the o200k encoding offline. */
export interface TokenCounter {
  count(text: string): number;
  /**
   * A number `count(text)` never exceeds, found without the encoder (for o200k, the UTF-8 length: every token is at
   * least one byte). A budget that this bound already meets needs no count, so the encoder's tables (~2.4 MB of
   * code) are not loaded for a small catalog; counters without a cheap bound leave it out.
   */
  atMost?(text: string): number;
}

/** One skill the catalog may show: the skill index's own catalog entry (the ranking reads the same fields). */
export type { CatalogSkill };

/** One doc selected for injection. */
export interface LoadedDoc {
  path: string;
  content: string;
}

/** A loaded skill's content, in load order. */
export interface LoadedSkillContent {
  name: string;
  body: string;
  docs: LoadedDoc[];
  /** The tool call whose result carries the body in `tool-results` placement. */
  loadCallId?: string;
  /** The tool call whose result carries the docs (a load with docs, or select_docs). */
  docsCallId?: string;
}

/** Budget of the `<available_skills>` block; whichever limit is hit first cuts. */
export interface CatalogBudget {
  maxTokens?: number;
  maxChars?: number;
}

/** Everything that shapes the instructions, fixed for a host or a session. */
export interface ComposeOptions {
  placement: ContentPlacement;
  catalogBudget: CatalogBudget;
  /** Replaces the default tooling-guidance block; `''` turns it off. */
  toolingGuidance?: string;
  /** Tokens of loaded content above which a warning is raised (default 10 000, seed 002). */
  loadedContentBudget: number;
  /** The names the host gives the skill tools (e.g. `skills_load`): used in the rules and to find tool results. */
  toolNames: SkillToolNames;
  /** The loaded-skill cap, quoted in the base rules. */
  maxLoadedSkills: number;
  /** Hide SKILL.md locations in the catalog (tool-only agents). */
  hideLocations?: boolean;
  /** Extra base rules appended after the built-in ones. */
  extraRules?: string;
  /**
   * The model has only the unified catalog's tools (seed 003's `minimal` surface): the base rules and the
   * catalog's omitted-skills line name these instead of `toolNames`. Pair it with a `toolingGuidance` that
   * names only them too (core/catalog's `minimalToolGuidance`).
   */
  catalogTools?: CatalogToolNamesForPrompt;
  /** No tool is offered: skills are read as `skill://` resources (MCP), and the rules say so. */
  resourcesOnly?: boolean;
  /**
   * The name of the search tool offered (find_skills) that `<available_skills>`' closing line points to when the
   * catalog does not fit; omitted when the model has none.
   */
  findTool?: string;
}

/** One model call's inputs. */
export interface ComposeInput {
  /** The user's request of this turn: drives mention detection and catalog ranking. */
  request?: string;
  catalog: readonly CatalogSkill[];
  active: readonly LoadedSkillContent[];
  messages: readonly ChatMessage[];
  options: ComposeOptions;
  counter: TokenCounter;
  /** The skill index holding the catalog's skills (kept by the runtime across calls); omitted: built for this call. */
  index?: SkillIndex;
}

/** The parts of the instructions, for previews that count and show them one by one. */
export interface ComposeSections {
  rules: string;
  extraRules: string;
  catalog: string;
  guidance: string;
  /** The `<active_skills>` block (empty when nothing goes into the instructions). */
  active: string;
}

/** What the host sends: instructions plus the (possibly materialized) messages. */
export interface ComposeResult {
  instructions: string;
  messages: ChatMessage[];
  /**
   * `ranked`: every catalog skill's name in rank order (mentions, relevance, recency, scope, name). `shown`: the
   * described skills, then the last `namedOnly` of them, listed by name only (`<more_skills>`).
   */
  catalog: { shown: string[]; namedOnly: number; omitted: number; tokens: number; mentioned: string[]; ranked: string[]; ranking: CatalogRanking; request?: string };
  /** The instructions' parts in order, as joined into `instructions` (empty strings for parts left out). */
  sections: ComposeSections;
  /** Skills whose content went into a tool result, with the call id. */
  materialized: { skill: string; callId: string; part: 'body' | 'docs' }[];
  /** Skills whose content fell back into the instructions (their tool result is not in the history). */
  fallback: string[];
  tokens: { instructions: number; loadedContent: number };
  warnings: string[];
}
