// Every id the extension shares with package.json's `contributes`, in one place.
// (test/build/contributes.test.ts checks these against package.json, so a rename cannot drift.)
import { catalogToolNames, LIST_TOOL, runtimeToolNames } from '../core/tools/toolNames';

/** The extension's id as `publisher.name`. */
export const EXTENSION_ID = 'agent-skills-runtime.agent-skills-runtime';

/**
 * Language Model Tool names (contributes.languageModelTools[].name), read from the core's tool table
 * (src/core/tools/toolNames.ts), the only place they are written: `list` is list_skills, the rest are keyed
 * by the runtime's tool ids.
 */
export const TOOL_NAMES = { list: LIST_TOOL.name, ...runtimeToolNames() } as const;

/** runSkill and updateSkill (seed 003), offered by setting agentSkills.toolSurface; names from the core's table. */
export const CATALOG_TOOL_NAMES = catalogToolNames();

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
  createPlugin: 'agentSkills.createPlugin',
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
  testTriggers: 'agentSkills.testTriggers',
  stopTriggerTests: 'agentSkills.stopTriggerTests',
  draftTriggerRequests: 'agentSkills.draftTriggerRequests',
  suggestDescription: 'agentSkills.suggestDescription',
  /** For tests and automation: the tree's items as plain JSON. Not in the palette. */
  describeTree: 'agentSkills.describeTree',
} as const;

/** Set by `npm start` for the VS Code it opens: the extension then shows the Skills view (value `skills`). */
export const START_VIEW_ENV = 'AGENT_SKILLS_START_VIEW';

/** Session id of calls from agents other than `@skills` (Copilot's own agent mode): one per window. */
export const WINDOW_SESSION_PREFIX = 'window-';

/** VS Code's own command that opens the Workspace Trust editor (package.json's welcome content links to it). */
export const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';
/** The label of the button that runs it (VS Code's command is "Workspaces: Manage Workspace Trust"). */
export const MANAGE_TRUST_LABEL = 'Manage Workspace Trust';
/** Context key: the workspace holds skills hidden because it is not trusted (drives the view's welcome content). */
export const HIDDEN_SKILLS_KEY = 'agentSkills.workspaceSkillsHidden';
