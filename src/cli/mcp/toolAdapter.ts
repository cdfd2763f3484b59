// INTERIM tool adapter: the MCP tool surface over today's two tool families (the runtime's six tools and the
// catalog's runSkill/updateSkill), fed by the same tables the VS Code manifest is generated from
// (toolContributions: names, model descriptions, input schemas) so MCP restates none of them. When the one
// tool model of issue 12 (src/core/tools/) lands on main, this file is replaced by a thin mapping of that table.
import { CATALOG_TOOL_DESCRIPTIONS } from '../../core/catalog/toolSchemas';
import { invokeRunSkill } from '../../core/catalog/runSkillTool';
import { invokeUpdateSkill } from '../../core/catalog/updateSkillTool';
import type { SkillCatalog } from '../../core/catalog/skillCatalog';
import { toolFamilies, type ToolSurface } from '../../core/catalog/toolSurface';
import { renderActiveSkills } from '../../core/prompt/activeSkills';
import { renderAvailableSkills } from '../../core/prompt/availableSkills';
import { runtimeSessionLoader } from '../../core/catalog/sessionLoader';
import { loadedContentFor } from '../../core/runtime/loadedContent';
import { SkillContentCache } from '../../core/runtime/skillContent';
import type { SkillsRuntime } from '../../core/runtime/skillsRuntime';
import { toolResultText } from '../../core/runtime/toolResultText';
import type { SkillToolName } from '../../core/runtime/toolSchemas';
import { catalogResultText } from '../../extension/tools/catalogResult';
import { listSkillsInput } from '../../extension/tools/listSkillsInput';
import { toolContributions } from '../../extension/tools/toolManifest';
import { CATALOG_TOOL_NAMES, TOOL_NAMES } from '../../extension/ids';

/** One tool as MCP lists it. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** True when calling it changes something outside the session (scripts, skill files). */
  sideEffects: boolean;
}

/** What the adapter calls into. */
export interface ToolHost {
  runtime: SkillsRuntime;
  catalog: SkillCatalog;
  surface: ToolSurface;
  /** `run_skill_script` is offered and callable only when true (`--allow-scripts`). */
  allowScripts: boolean;
  /** updateSkill is left out when true (`--read-only`). */
  readOnly: boolean;
}

/** The text a tool call answers with, and whether MCP should flag it as an error. */
export interface McpToolAnswer {
  text: string;
  isError: boolean;
  /** True when the core already wrote the call's audit line (runtime and catalog tools); the caller writes the rest. */
  audited?: boolean;
}

const RUNTIME_BY_HOST_NAME = new Map<string, SkillToolName>(Object.entries(TOOL_NAMES).filter(([k]) => k !== 'list').map(([k, v]) => [v, k as SkillToolName]));

const MCP_NOTES: Record<string, string> = {
  [CATALOG_TOOL_NAMES.updateSkill]: ' Over MCP no one is asked before a write: use dryRun first and show the user the diff before writing.',
};

// The manifest tables build JSON schemas from zod: done once per setting, not on every call.
const toolLists = new Map<string, McpTool[]>();

/** The tools a server with these settings offers, in manifest order. */
export function mcpTools(host: Pick<ToolHost, 'surface' | 'allowScripts' | 'readOnly'>): McpTool[] {
  const key = `${host.surface}|${host.allowScripts}|${host.readOnly}`;
  let list = toolLists.get(key);
  if (!list) toolLists.set(key, (list = buildTools(host)));
  return list;
}

function buildTools(host: Pick<ToolHost, 'surface' | 'allowScripts' | 'readOnly'>): McpTool[] {
  const fam = toolFamilies(host.surface);
  const out: McpTool[] = [];
  for (const c of toolContributions()) {
    const catalogTool = c.name === CATALOG_TOOL_NAMES.runSkill || c.name === CATALOG_TOOL_NAMES.updateSkill;
    if (catalogTool ? !fam.catalog : !fam.standard) continue;
    if (c.name === TOOL_NAMES.run_script && !host.allowScripts) continue;
    if (c.name === CATALOG_TOOL_NAMES.updateSkill && host.readOnly) continue;
    // The manifest's catalog descriptions carry VS Code's confirmation notes, which do not hold over MCP.
    const description = catalogTool ? CATALOG_TOOL_DESCRIPTIONS[c.name as keyof typeof CATALOG_TOOL_DESCRIPTIONS] + (MCP_NOTES[c.name] ?? '') : c.modelDescription;
    out.push({ name: c.name, description, inputSchema: c.inputSchema, sideEffects: c.name === TOOL_NAMES.run_script || c.name === CATALOG_TOOL_NAMES.updateSkill });
  }
  return out;
}

const refused = (code: string, message: string, hint: string): McpToolAnswer => ({ text: JSON.stringify({ error: { code, message, hint } }), isError: true });

/**
 * Calls one tool for an MCP session. Runtime tools go through `runtime.invoke` (validation, errors and the audit
 * line with the session id); a successful load_skills / select_docs also carries the loaded instructions, since an
 * MCP client has no prompt composer to put them into the model's context.
 */
export async function callMcpTool(host: ToolHost, name: string, input: unknown, call: { sessionId: string; signal?: AbortSignal }, content: SkillContentCache): Promise<McpToolAnswer> {
  const offered = mcpTools(host).map((t) => t.name);
  if (name === TOOL_NAMES.run_script && !host.allowScripts) {
    return refused('scripts_disabled', `${name} is not offered by this server: it was started without --allow-scripts.`, 'Do the task without running the skill\'s scripts, or ask the user to restart the server with --allow-scripts (an MCP client cannot ask them before a run).');
  }
  if (!offered.includes(name)) return refused('unknown_tool', `This server offers no tool '${name}'.`, `Use one of: ${offered.join(', ')}.`);
  if (name === TOOL_NAMES.list) return listSkills(host, input);
  if (name === CATALOG_TOOL_NAMES.runSkill || name === CATALOG_TOOL_NAMES.updateSkill) {
    const audit = host.runtime.audit ? { audit: host.runtime.audit, sessionId: call.sessionId } : { sessionId: call.sessionId };
    const r =
      name === CATALOG_TOOL_NAMES.runSkill
        ? await invokeRunSkill(host.catalog, input, { sessionId: call.sessionId }, { ...audit, sessions: runtimeSessionLoader(host.runtime) })
        : await invokeUpdateSkill(host.catalog, input, audit);
    return { text: catalogResultText(r), isError: !r.ok, audited: true };
  }
  const tool = RUNTIME_BY_HOST_NAME.get(name) as SkillToolName;
  const r = await host.runtime.invoke(tool, input ?? {}, call);
  let text = toolResultText(r);
  if (r.ok && (tool === 'load' || tool === 'select_docs')) {
    const session = host.runtime.sessions.get(call.sessionId);
    const names = tool === 'load' ? (r.result as { loaded: string[] }).loaded : [(r.result as { skill: string }).skill];
    if (session) {
      const { active } = await loadedContentFor(session, content, host.runtime.source);
      const block = renderActiveSkills(active.filter((a) => names.includes(a.name)));
      if (block) text += `\n\nFollow these instructions of the loaded skill(s):\n${block}`;
    }
  }
  return { text, isError: !r.ok, audited: true };
}

function listSkills(host: ToolHost, input: unknown): McpToolAnswer {
  const parsed = listSkillsInput.safeParse(input ?? {});
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ');
    return refused('invalid_input', `${TOOL_NAMES.list}: ${why}.`, `Call ${TOOL_NAMES.list} with {} or { "filter": "<text>" }.`);
  }
  const filter = parsed.data.filter?.toLowerCase();
  const skills = host.runtime.source.list().filter((r) => !filter || r.name.toLowerCase().includes(filter) || r.description.toLowerCase().includes(filter));
  if (!skills.length) return { text: `No skills${filter ? ` match "${parsed.data.filter}"` : ' are available'}. Answer without a skill.`, isError: false };
  const block = renderAvailableSkills(skills.map((r) => ({ name: r.name, description: r.description })));
  return { text: `${block}\nTo use a skill, call ${TOOL_NAMES.load} with its name, then follow its instructions.`, isError: false };
}
