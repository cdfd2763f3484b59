// The prompt preview as a Markdown document: the composed instructions exactly as `@skills` sends them, the
// catalog's ranking (shown, left out and why), the active skills, the tools with the descriptions models get,
// and o200k token counts per section against the models' context. No VS Code import: built from plain data.
import { explainLine } from '../../core/index/skillSearch';
import type { CatalogSkill, ChatMessage, ComposeResult, TokenCounter } from '../../core/prompt/promptTypes';
import type { SkillRecord } from '../../core/registry/registryTypes';
import type { SessionState } from '../../core/runtime/runtimeTypes';
import { sourceOf } from '../../core/sources';

/** Everything the preview shows, gathered by the command. */
export interface PreviewInput {
  request: string;
  /** The session as the turn left it (in the scratch copy), and how the user knows it. */
  session: SessionState;
  sessionLabel: string;
  isNewSession: boolean;
  composed: ComposeResult;
  /** The messages after the instructions (the request; the chat's earlier turns are the chat's own). */
  messages: readonly ChatMessage[];
  tools: readonly { name: string; description: string; inputSchema?: object }[];
  /** Every discovered skill, to say why some are not offered at all. */
  records: readonly SkillRecord[];
  settings: { placement: string; toolSurface: string; catalogMaxTokens: number; catalogMaxChars: number; maxLoadedSkills: number };
  models: readonly { name: string; maxInputTokens: number }[];
  turnErrors: readonly string[];
  trusted: boolean;
  generatedAt: Date;
  counter: TokenCounter;
}

/** How many of the skills left out are explained one by one (the rest are counted). */
const LEFT_OUT_EXPLAINED = 10;

/** Why a skill is where it is in the ranking: its mention, or the words that matched and its score. */
function whyRanked(ranking: ComposeResult['catalog']['ranking'], skill: CatalogSkill): string {
  const mention = ranking.mentioned(skill);
  if (mention) return mention === 'explicit' ? 'named with $ or # in the request' : 'its distinctive name is written in the request';
  const why = ranking.explain(skill);
  return why.length ? `score ${ranking.score(skill).toFixed(2)}: ${explainLine(why, 5)}` : 'no word of the request matched: by recent use, scope and name';
}

function fenced(text: string, lang = 'text'): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

function messageText(m: ChatMessage): string {
  switch (m.role) {
    case 'tool-call':
      return `[tool-call ${m.name}] ${JSON.stringify(m.input)}`;
    case 'tool-result':
      return `[tool-result ${m.callId}] ${m.content}`;
    default:
      return m.content;
  }
}

/** Why a skill is not in the catalog at all (broken, shadowed, ambiguous). */
function notOffered(r: SkillRecord): string {
  const first = r.diagnostics.find((d) => d.severity === 'error')?.message;
  if (r.status === 'shadowed') return `shadowed by ${r.shadowedBy ?? 'a skill of higher precedence'}`;
  if (r.status === 'ambiguous') return `ambiguous with ${(r.ambiguousWith ?? []).join(', ') || 'another skill of the same name'}; neither is offered`;
  return `broken${first ? `: ${first}` : ''}`;
}

export function previewText(p: PreviewInput): string {
  const c = p.composed;
  const count = (t: string) => (t ? p.counter.count(t) : 0);
  const s = p.settings;
  const sections: [string, string][] = [
    ['base rules', c.sections.rules],
    ...(c.sections.extraRules ? ([['extra rules', c.sections.extraRules]] as [string, string][]) : []),
    ['<available_skills>', c.sections.catalog],
    ['tooling guidance', c.sections.guidance],
    ['<active_skills>', c.sections.active],
  ];
  const messageTokens = p.messages.reduce((n, m) => n + count(messageText(m)), 0);
  const toolTokens = p.tools.reduce((n, t) => n + count(`${t.name}\n${t.description}\n${JSON.stringify(t.inputSchema ?? {})}`), 0);
  const total = c.tokens.instructions + messageTokens + toolTokens;
  const out: string[] = [
    '# Prompt preview: what @skills would send',
    '',
    `- Request: ${p.request ? `"${p.request}"` : '(empty)'}`,
    `- Session: ${p.isNewSession ? 'a new session' : `${p.sessionLabel} (${p.session.id})`}, load mode \`${p.session.load_mode}\`, ${p.session.active_skills.length} skill(s) loaded for this turn`,
    `- Settings: placement \`${s.placement}\`, tool surface \`${s.toolSurface}\`, catalog budget ${s.catalogMaxTokens} tokens / ${s.catalogMaxChars} characters, at most ${s.maxLoadedSkills} loaded skills`,
    ...(p.trusted ? [] : ['- This workspace is not trusted: its own skills are not offered.']),
    `- Made ${p.generatedAt.toISOString()}. It is made again by itself when a SKILL.md is saved, a setting changes or the session's skills change; "Agent Skills: Refresh Prompt Preview" (the refresh button of this editor) makes it again now.`,
    "- This is the first model call of the turn. The chat's earlier turns, which only the chat holds, would come before the request; nothing here was sent or saved.",
    '',
    '## Tokens (o200k)',
    '',
    '| part | tokens |',
    '| --- | ---: |',
    ...sections.map(([name, text]) => `| ${name.startsWith('<') ? `\`${name}\`` : name} | ${count(text)} |`),
    `| instructions as sent (the parts above, joined) | ${c.tokens.instructions} |`,
    `| messages (${p.messages.length}) | ${messageTokens} |`,
    `| tools (${p.tools.length}: names, descriptions, input schemas) | ${toolTokens} |`,
    `| **total** | **${total}** |`,
    '',
    p.models.length
      ? `Against the context of the chat models here: ${p.models.map((m) => `${m.name} ${m.maxInputTokens} tokens (${((100 * total) / Math.max(1, m.maxInputTokens)).toFixed(1)}% used)`).join('; ')}.`
      : 'No chat model is available in this window, so the total cannot be set against a context size (models count with their own tokenizers; o200k is a close guide for current ones).',
    '',
  ];

  const shownNames = new Set(c.catalog.shown);
  const byName = new Set(c.catalog.shown.slice(c.catalog.shown.length - c.catalog.namedOnly));
  const ranked = c.catalog.ranking.all();
  out.push(`## \`<available_skills>\`: ${c.catalog.shown.length} of ${ranked.length} skill(s) shown, ${c.catalog.tokens} tokens`, '');
  out.push(
    'In rank order (named with $ or # first, then a distinctive name written in the request, then the skill index\'s relevance to the request: BM25F over name, description, headings and body; then recent use, scope and name). When the budget cuts, skills are taken in this order; the block itself lists the shown ones by name. Each line says which words of the request matched in which fields, and the score.',
    '',
  );
  let leftOut = 0;
  ranked.forEach((skill, i) => {
    const shown = shownNames.has(skill.name);
    if (!shown && ++leftOut > LEFT_OUT_EXPLAINED) return;
    const state = byName.has(skill.name) ? 'shown by name only (past the described share of the budget)' : shown ? 'shown' : `left out: it did not fit the budget (${s.catalogMaxTokens} tokens / ${s.catalogMaxChars} characters)`;
    out.push(`${i + 1}. ${skill.name}: ${state}; ${whyRanked(c.catalog.ranking, skill)}`);
  });
  if (leftOut > LEFT_OUT_EXPLAINED) out.push(`… and ${leftOut - LEFT_OUT_EXPLAINED} more left out, ranked lower (the model can search them with find_skills).`);
  const absent = p.records.filter((r) => r.status !== 'ok');
  if (absent.length) out.push('', 'Not offered at all:', '', ...absent.map((r) => `- ${r.name} (${sourceOf(r.scope).scopeWord}, ${r.location}): ${notOffered(r)}`));
  out.push('');

  out.push('## Active skills, in load order', '');
  if (!p.session.active_skills.length) out.push('None: the model sees only the catalog and loads skills with the tools.');
  p.session.active_skills.forEach((a, i) => {
    const docs = a.docs === '*' ? 'all docs' : a.docs.length ? `docs: ${a.docs.join(', ')}` : 'no docs';
    const where = c.fallback.includes(a.name) || s.placement === 'instructions' ? 'in `<active_skills>` of the instructions' : 'appended to its load call\'s tool result';
    out.push(`${i + 1}. ${a.name} (${a.id}), ${docs}${a.offloaded ? ', already shown once (load mode once): not sent again' : `, ${where}`}`);
  });
  if (p.turnErrors.length || c.warnings.length) out.push('', '## Warnings', '', ...[...p.turnErrors, ...c.warnings].map((w) => `- ${w}`));
  out.push('', '## Instructions, exactly as sent (the first message)', '', fenced(c.instructions), '', '## Messages after the instructions', '');
  for (const m of p.messages) out.push(`### ${m.role}`, '', fenced(messageText(m)), '');
  out.push(`## Tools offered (${p.tools.length}), as the model gets them`, '');
  if (!p.tools.length) out.push('None of the tool surface is registered in this window.');
  for (const t of p.tools) out.push(`### ${t.name}`, '', t.description, '', fenced(JSON.stringify(t.inputSchema ?? {}, null, 2), 'json'), '');
  return `${out.join('\n').trimEnd()}\n`;
}
