// The MCP tool surface, derived from the core's tool table (src/core/tools): names, titles, input schemas,
// model descriptions, errors and the result-to-text function are the table's. MCP adds only what holds for MCP:
// which tools the server's flags offer, a note where VS Code's behaviour (a confirmation) does not exist here,
// and the loaded instructions in a load's answer (an MCP client has no prompt composer to put them in context).
import { runtimeSessionLoader } from '../../core/catalog/sessionLoader';
import type { SkillCatalog } from '../../core/catalog/skillCatalog';
import { toolFamilies, type ToolSurface } from '../../core/catalog/catalogSurface';
import { renderActiveSkills } from '../../core/prompt/activeSkills';
import { inputJsonSchema } from '../../core/runtime/inputJsonSchema';
import type { SkillContentCache } from '../../core/runtime/skillContent';
import type { SkillTools } from '../../core/runtime/skillTools';
import type { ToolDescriptor, ToolServices } from '../../core/toolTable/toolDescriptor';
import { CATALOG_TOOLS, RUNTIME_TOOLS } from '../../core/tools/toolNames';
import { toolResultText } from '../../core/toolTable/toolResultText';
import { callTool } from '../../core/toolTable/callTool';
import { TOOLS } from '../../core/toolTable/toolTable';
import { invalidParams } from './requestError';

/** One tool as MCP lists it. */
export interface McpTool {
  descriptor: ToolDescriptor;
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  sideEffects: boolean;
}

/** What the adapter calls into. */
export interface McpToolServices {
  runtime: SkillTools;
  catalog: SkillCatalog;
  surface: ToolSurface;
  /** updateSkill is left out when true (`--read-only`). */
  readOnly: boolean;
  /** False with `--no-tools`: the server offers resources and prompts only. */
  tools?: boolean;
}

/** The text a tool call answers with, and whether MCP should flag it as an error. */
export interface McpToolAnswer {
  text: string;
  isError: boolean;
  /** The refusal's code when isError: read from the result, never from the text. */
  code?: string;
}

/** What holds over MCP and not in VS Code, appended to the table's description. */
const MCP_NOTES: Partial<Record<string, string>> = {
  [CATALOG_TOOLS.updateSkill.name]: ' Over MCP no one is asked before a write: use dryRun first and show the user the diff before writing.',
};

// JSON schemas are generated from zod: once per setting, not on every call.
const toolLists = new Map<string, McpTool[]>();

/**
 * The tools a server with these settings offers, in the table's order. `run_skill_script` is offered when the runtime
 * has an executor (the server was started with --allow-scripts): that is decided once, where the core is assembled.
 */
export function mcpTools(host: Pick<McpToolServices, 'surface' | 'runtime' | 'readOnly' | 'tools'>): McpTool[] {
  if (host.tools === false) return [];
  const scripts = host.runtime.runsScripts;
  const key = `${host.surface}|${scripts}|${host.readOnly}`;
  let list = toolLists.get(key);
  if (!list) {
    const fam = toolFamilies(host.surface);
    list = TOOLS.filter((t) => (t.family === 'catalog' ? fam.catalog : fam.standard))
      .filter((t) => (t.name !== RUNTIME_TOOLS.run_script.name || scripts) && (t.name !== CATALOG_TOOLS.updateSkill.name || !host.readOnly))
      .map((t) => ({ descriptor: t, name: t.name, title: t.title, description: t.description + (MCP_NOTES[t.name] ?? ''), inputSchema: inputJsonSchema(t.input), sideEffects: t.sideEffects }));
    toolLists.set(key, list);
  }
  return list;
}

/** Why a tool is not offered, and what to do instead. */
function notOffered(name: string, offered: readonly McpTool[], host: Pick<McpToolServices, 'runtime'>): string {
  if (name === RUNTIME_TOOLS.run_script.name && !host.runtime.runsScripts) {
    return `Unknown tool: ${name} is not offered by this server: it was started without --allow-scripts. Do the task without running the skill's scripts, or ask the user to restart the server with --allow-scripts (a client that supports MCP elicitation is then asked before each run).`;
  }
  return `Unknown tool: this server offers no tool '${name}'. Use one of: ${offered.map((t) => t.name).join(', ')}.`;
}

/** Calls one tool for an MCP session through the one call path (which validates, audits and words errors); -32602 for a tool not offered. */
export async function callMcpTool(host: McpToolServices, name: string, input: unknown, call: { sessionId: string; signal?: AbortSignal }, content: SkillContentCache): Promise<McpToolAnswer> {
  const offered = mcpTools(host);
  const tool = offered.find((t) => t.name === name);
  // A tool this server does not offer is a protocol error (-32602, "Unknown tool"), not a tool result: decided here
  // once, from the list the server offers; the message says why when the flags left it out.
  if (!tool) throw invalidParams(notOffered(String(name).slice(0, 200), offered, host), { tool: String(name).slice(0, 200) });
  const services: ToolServices = { runtime: async () => host.runtime, catalog: async () => host.catalog, sessionLoader: runtimeSessionLoader(host.runtime) };
  const r = await callTool(tool.descriptor, { sessionId: call.sessionId, signal: call.signal, surface: 'mcp', services }, input);
  let text = toolResultText(r);
  const id = tool.descriptor.id;
  if (r.ok && (id === 'load' || id === 'select_docs')) {
    const session = host.runtime.sessions.get(call.sessionId);
    const names = id === 'load' ? (r.result as { loaded: string[] }).loaded : [(r.result as { skill: string }).skill];
    if (session) {
      const { active } = await host.runtime.loadedContent(session, content);
      const block = renderActiveSkills(active.filter((a) => names.includes(a.name)));
      if (block) text += `\n\nFollow these instructions of the loaded skill(s):\n${block}`;
    }
  }
  return r.ok ? { text, isError: false } : { text, isError: true, code: r.error.code };
}
