// Every id the extension shares with package.json's `contributes`, in one place.
// (test/build/contributes.test.ts checks these against package.json, so a rename cannot drift.)
import type { SkillToolName } from '../core/runtime/toolSchemas';

/** The extension's id as `publisher.name`. */
export const EXTENSION_ID = 'agent-skills-runtime.agent-skills-runtime';

/**
 * Language Model Tool names (contributes.languageModelTools[].name), `{verb}_{noun}` as VS Code's
 * tool guide recommends. `list` is the extension's own catalog tool for agents that have no
 * `<available_skills>` block (Copilot's agent mode); the rest are the runtime's tools.
 */
export const TOOL_NAMES = {
  list: 'list_skills',
  load: 'load_skills',
  unload: 'unload_skills',
  read: 'read_skill_file',
  run_script: 'run_skill_script',
  list_docs: 'list_skill_docs',
  select_docs: 'select_skill_docs',
} as const satisfies Record<SkillToolName | 'list', string>;

/** What users type after `#` in a chat prompt (contributes.languageModelTools[].toolReferenceName). */
export const TOOL_REFERENCE_NAMES = {
  list: 'skillsList',
  load: 'skillsLoad',
  unload: 'skillsUnload',
  read: 'skillsRead',
  run_script: 'skillsRunScript',
  list_docs: 'skillsListDocs',
  select_docs: 'skillsSelectDocs',
} as const satisfies Record<keyof typeof TOOL_NAMES, string>;

/**
 * The unified catalog's two tools (seed 003, issue 6). Named as the seed names them, since models and prompts
 * written for that contract call them by these names; offered by setting agentSkills.toolSurface.
 */
export const CATALOG_TOOL_NAMES = {
  runSkill: 'runSkill',
  updateSkill: 'updateSkill',
} as const;

/** `#runSkill`, `#updateSkill` in a chat prompt. */
export const CATALOG_TOOL_REFERENCE_NAMES = {
  runSkill: 'runSkill',
  updateSkill: 'updateSkill',
} as const satisfies Record<keyof typeof CATALOG_TOOL_NAMES, string>;

/** The chat participant (contributes.chatParticipants[]). */
export const PARTICIPANT = {
  id: 'agent-skills-runtime.skills',
  name: 'skills',
} as const;

/** The participant's slash commands (contributes.chatParticipants[].commands[].name). */
export const SLASH_COMMANDS = ['list', 'load', 'unload', 'validate'] as const;

/** The view container and its views. */
export const VIEWS = {
  container: 'agentSkills',
  available: 'agentSkills.available',
  sessions: 'agentSkills.sessions',
} as const;

/** Command ids (contributes.commands[].command). */
export const COMMANDS = {
  refresh: 'agentSkills.refresh',
  createSkill: 'agentSkills.createSkill',
  validateAll: 'agentSkills.validateAll',
  loadSkill: 'agentSkills.loadSkill',
  unloadSkill: 'agentSkills.unloadSkill',
  showAuditLog: 'agentSkills.showAuditLog',
  openSkillsFolder: 'agentSkills.openSkillsFolder',
  openSkillFile: 'agentSkills.openSkillFile',
  revealSkill: 'agentSkills.revealSkill',
  validateSkill: 'agentSkills.validateSkill',
  showOutput: 'agentSkills.showOutput',
  runScript: 'agentSkills.runScript',
  stopScriptRuns: 'agentSkills.stopScriptRuns',
  previewPrompt: 'agentSkills.previewPrompt',
  refreshPromptPreview: 'agentSkills.refreshPromptPreview',
  /** For tests and automation: the tree's items as plain JSON. Not in the palette. */
  describeTree: 'agentSkills.describeTree',
} as const;

/** Set by `npm start` for the VS Code it opens: the extension then shows the Skills view (value `skills`). */
export const START_VIEW_ENV = 'AGENT_SKILLS_START_VIEW';

/** Session id of calls from agents other than `@skills` (Copilot's own agent mode): one per window. */
export const WINDOW_SESSION_PREFIX = 'window-';
