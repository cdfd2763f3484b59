import { renderActiveSkills, renderDoc, renderSkillBlock } from './activeSkills';
import { baseRules, catalogBaseRules, defaultToolingGuidance, resourceBaseRules } from './baseRules';
import { renderCatalog } from './catalog';
import { fitsTokens, lazyCounts } from './tokenCounter';
import { fenceLabel } from './contentFence';
import type { ChatMessage, ComposeInput, ComposeResult, LoadedSkillContent, SkillToolNames } from './promptTypes';

type ToolResultMessage = Extract<ChatMessage, { role: 'tool-result' }>;

/**
 * Builds one model call (seed 000's per-call contract): base rules with the loading-required rule,
 * `<available_skills>` within its budget, the tooling guidance, and the loaded skills' content.
 *
 * Placement `instructions` puts `<active_skills>` at the end of the instructions. Placement
 * `tool-results` (seed 004) appends each skill's body to the result of the load call that loaded it and
 * its docs to the result of the call that selected them, so the instructions stay byte-identical through
 * a tool loop; content whose tool result is not in the history falls back to the instructions.
 * The history passed in is never modified; changed tool results are new message objects.
 */
export function composeCall(input: ComposeInput): ComposeResult {
  const o = input.options;
  const counter = input.counter;
  const loadTool = o.resourcesOnly ? 'a read of skill://<name>/SKILL.md' : o.catalogTools ? `${o.catalogTools.runSkill} (action "run")` : o.toolNames.load;
  const findTool = o.resourcesOnly || o.catalogTools ? undefined : o.findTool;
  const catalog = renderCatalog(input.catalog, input.request, o.catalogBudget, counter, { hideLocations: o.hideLocations, loadTool, findTool, index: input.index });
  const guidance = o.toolingGuidance ?? (o.catalogTools || o.resourcesOnly ? '' : defaultToolingGuidance(o.toolNames));
  const rules = o.resourcesOnly ? resourceBaseRules(o.maxLoadedSkills) : o.catalogTools ? catalogBaseRules(o.catalogTools, o.maxLoadedSkills) : baseRules(o.toolNames, o.maxLoadedSkills);
  const head = [rules, o.extraRules ?? '', catalog.text, guidance].filter((p) => p !== '').join('\n\n');

  const messages = [...input.messages];
  const materialized: ComposeResult['materialized'] = [];
  const fallback: string[] = [];
  let activeBlock = '';
  if (o.placement === 'instructions') {
    activeBlock = renderActiveSkills(input.active);
  } else {
    const results = new Map<string, number>();
    messages.forEach((m, i) => {
      if (m.role === 'tool-result' && !m.isError) results.set(m.callId, i);
    });
    const appendix = new Map<number, string[]>();
    const add = (i: number, text: string) => appendix.set(i, [...(appendix.get(i) ?? []), text]);
    const inInstructions = new Map<LoadedSkillContent, { body: boolean; docs: boolean }>();
    input.active.forEach((s, k) => {
      const bodyCall = findCall(s, 'body', messages, results, o.toolNames, k === input.active.length - 1);
      const docsCall = s.docs.length ? (findCall(s, 'docs', messages, results, o.toolNames, k === input.active.length - 1) ?? bodyCall) : undefined;
      if (bodyCall && docsCall && bodyCall.index === docsCall.index) {
        add(bodyCall.index, renderSkillBlock(s.name, s.body, s.docs));
      } else {
        if (bodyCall) add(bodyCall.index, renderSkillBlock(s.name, s.body, []));
        if (docsCall) add(docsCall.index, `Docs of skill "${fenceLabel(s.name)}":\n\n${s.docs.map(renderDoc).join('\n\n')}`);
      }
      if (bodyCall) materialized.push({ skill: s.name, callId: bodyCall.callId, part: 'body' });
      if (docsCall) materialized.push({ skill: s.name, callId: docsCall.callId, part: 'docs' });
      const parts = { body: !bodyCall, docs: s.docs.length > 0 && !docsCall };
      if (parts.body || parts.docs) {
        fallback.push(s.name);
        inInstructions.set(s, parts);
      }
    });
    for (const [i, texts] of appendix) {
      const m = messages[i] as ToolResultMessage;
      messages[i] = { ...m, content: [m.content, ...texts].join('\n\n') };
    }
    activeBlock = renderActiveSkills(
      input.active.filter((s) => inInstructions.has(s)),
      (s) => inInstructions.get(s) as { body: boolean; docs: boolean },
    );
  }
  const instructions = activeBlock ? `${head}\n\n${activeBlock}` : head;

  const loadedText = input.active.map((s) => renderSkillBlock(s.name, s.body, s.docs)).join('\n');
  const tokens = lazyCounts({ instructions: () => counter.count(instructions), loadedContent: () => (loadedText ? counter.count(loadedText) : 0) });
  const warnings: string[] = [];
  if (!fitsTokens(counter, [loadedText], o.loadedContentBudget)) {
    warnings.push(
      `Loaded skill content is ${tokens.loadedContent} tokens, above the budget of ${o.loadedContentBudget}: unload skills that are no longer needed or select fewer docs.`,
    );
  }
  if (catalog.omitted) warnings.push(`${catalog.omitted} skill(s) were left out of <available_skills> to stay within its budget.`);
  return {
    instructions,
    messages,
    catalog: {
      shown: catalog.shown,
      namedOnly: catalog.namedOnly,
      omitted: catalog.omitted,
      get tokens() {
        return catalog.tokens;
      },
      mentioned: [...catalog.mentions.explicit, ...catalog.mentions.named],
      get ranked() {
        return catalog.ranked;
      },
      ranking: catalog.ranking,
      request: input.request,
    },
    sections: { rules, extraRules: o.extraRules ?? '', catalog: catalog.text, guidance, active: activeBlock },
    materialized,
    fallback,
    tokens,
    warnings,
  };
}

/**
 * The tool result that carries a skill's body (its load call) or docs (its last docs call): the call id
 * recorded by the session when the host passed one, else the latest matching call in the history.
 */
function findCall(
  s: LoadedSkillContent,
  part: 'body' | 'docs',
  messages: readonly ChatMessage[],
  results: Map<string, number>,
  tools: SkillToolNames,
  isLatest: boolean,
): { callId: string; index: number } | undefined {
  const recorded = part === 'body' ? s.loadCallId : s.docsCallId;
  if (recorded !== undefined) {
    const index = results.get(recorded);
    return index === undefined ? undefined : { callId: recorded, index };
  }
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'tool-call' || !results.has(m.callId)) continue;
    const args = (m.input ?? {}) as { names?: unknown; skill?: unknown; docs?: unknown; include_all_docs?: unknown };
    const loads = m.name === tools.load && Array.isArray(args.names) && args.names.includes(s.name);
    if (part === 'body' && loads) return { callId: m.callId, index: results.get(m.callId) as number };
    if (part === 'docs') {
      const selects = m.name === tools.select_docs && (args.skill === s.name || (args.skill === undefined && isLatest));
      if (selects || (loads && (args.docs !== undefined || args.include_all_docs === true))) return { callId: m.callId, index: results.get(m.callId) as number };
    }
  }
  return undefined;
}
