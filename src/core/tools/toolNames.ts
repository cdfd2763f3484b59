// THE TABLE OF TOOL NAMES: the only place a tool's public name is written. package.json's manifest (through
// scripts/sync-manifest.mjs), the VS Code registration, the prompt's tool names, the @skills loop, the CLI
// and the MCP server all read the names from here (test/core/tools/toolTable.test.ts greps src/ for strays).
// This file imports nothing, so every layer (runtime, catalog, prompt) may read it without a cycle; the
// descriptors that add schemas, descriptions and `invoke` are in ../toolTable/toolTable.ts.

/** The names of one tool. */
export interface ToolNaming {
  /** The name models and users see (VS Code `languageModelTools[].name`, MCP tool name). */
  readonly name: string;
  /** What users type after `#` in a VS Code chat prompt. */
  readonly referenceName: string;
  /** A short title for people (VS Code `displayName`, MCP `title`). */
  readonly title: string;
}

/**
 * The runtime's six tools (seed 000, seed 004's docs tools), keyed by the runtime's own short ids (`load`,
 * `run_script`, ...: what its audit lines and `invoke` use), named `{verb}_{noun}` as VS Code's tool guide asks.
 */
export const RUNTIME_TOOLS = {
  load: { name: 'load_skills', referenceName: 'skillsLoad', title: 'Load Agent Skills' },
  unload: { name: 'unload_skills', referenceName: 'skillsUnload', title: 'Unload Agent Skills' },
  read: { name: 'read_skill_file', referenceName: 'skillsRead', title: 'Read Skill File' },
  run_script: { name: 'run_skill_script', referenceName: 'skillsRunScript', title: 'Run Skill Script' },
  list_docs: { name: 'list_skill_docs', referenceName: 'skillsListDocs', title: 'List Skill Docs' },
  select_docs: { name: 'select_skill_docs', referenceName: 'skillsSelectDocs', title: 'Select Skill Docs' },
} as const satisfies Record<string, ToolNaming>;

/**
 * `list_skills`: the `<available_skills>` catalog as a tool, for agents that get no such block in their
 * instructions (Copilot's agent mode, MCP clients). Offered with the runtime's tools.
 */
export const LIST_TOOL = { name: 'list_skills', referenceName: 'skillsList', title: 'List Agent Skills' } as const satisfies ToolNaming;

/**
 * `find_skills`: searches every installed skill with the skill index, in the model's own words: for a catalog
 * too large for `<available_skills>`. Offered with the runtime's tools.
 */
export const FIND_TOOL = { name: 'find_skills', referenceName: 'skillsFind', title: 'Find Agent Skills' } as const satisfies ToolNaming;

/** The unified catalog's two tools (seed 003), named as the seed names them: prompts written for it call these names. */
export const CATALOG_TOOLS = {
  runSkill: { name: 'runSkill', referenceName: 'runSkill', title: 'Run Agent Skill' },
  updateSkill: { name: 'updateSkill', referenceName: 'updateSkill', title: 'Update Agent Skill' },
} as const satisfies Record<string, ToolNaming>;

/** A runtime tool's id. */
export type RuntimeToolId = keyof typeof RUNTIME_TOOLS;
/** A catalog tool's id (its name). */
export type CatalogToolId = keyof typeof CATALOG_TOOLS;

/**
 * The ids of the tools named here: the runtime's short ids, and the public name of the others. Tables about these
 * tools are keyed by it. A new tool need not be named here: its descriptor carries its names (and its manifest UI and
 * wording), so a tool is one descriptor file plus its line in ../toolTable/toolTable.ts.
 */
export type ToolId = RuntimeToolId | CatalogToolId | typeof LIST_TOOL.name | typeof FIND_TOOL.name;

/** The runtime tools' ids, in the order hosts list them. */
export const RUNTIME_TOOL_IDS = Object.keys(RUNTIME_TOOLS) as RuntimeToolId[];

/** Runtime id → public name, e.g. `{ load: 'load_skills', ... }`: what the runtime's `toolNames` option takes. */
export function runtimeToolNames(): { [K in RuntimeToolId]: (typeof RUNTIME_TOOLS)[K]['name'] } {
  return Object.fromEntries(RUNTIME_TOOL_IDS.map((id) => [id, RUNTIME_TOOLS[id].name])) as { [K in RuntimeToolId]: (typeof RUNTIME_TOOLS)[K]['name'] };
}

/** Catalog id → public name: `{ runSkill: 'runSkill', updateSkill: 'updateSkill' }`. */
export function catalogToolNames(): { [K in CatalogToolId]: (typeof CATALOG_TOOLS)[K]['name'] } {
  return { runSkill: CATALOG_TOOLS.runSkill.name, updateSkill: CATALOG_TOOLS.updateSkill.name };
}
