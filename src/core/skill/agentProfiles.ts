/**
 * Agent profiles: what each agent that loads Agent Skills knows, from its public documentation, so a skill written for
 * one agent is linted as that agent reads it. One table per agent; the rules ask the profile and hold no agent
 * conditionals of their own. The default, `any`, accepts what any agent accepts and leaves to the rules what
 * breaks everywhere or is not portable.
 *
 * Users name an agent `host` (`--host`, `host:` in .agent-skills.yaml, `agentSkills.validation.host`, rule ids such
 * as `host-field-value`); in the code it is an agent, because a host there is the file host (src/core/host).
 *
 * Sources (read when this was written): Claude Code's skills and tools reference (code.claude.com/docs: skills,
 * tools-reference, permissions), Codex's skills documentation (developers.openai.com/codex/skills:
 * `agents/openai.yaml`), VS Code's agent skills documentation (code.visualstudio.com/docs/copilot/customization/
 * agent-skills), GitHub Copilot CLI's skills and permissions documentation (docs.github.com/copilot), and the
 * agentskills.io specification.
 */

/** An agent a skill can be linted for; `any` is the default. */
export const AGENT_IDS = ['any', 'claude-code', 'codex', 'vscode', 'copilot-cli', 'agentskills'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

/** What one agent knows. */
export interface AgentProfile {
  id: Exclude<AgentId, 'any'>;
  /** Shown in messages. */
  label: string;
  /** Frontmatter fields the agent reads beyond the six of the specification. */
  fields: readonly string[];
  /** Tool names the agent grants in `allowed-tools` (exact, case-sensitive). */
  tools: readonly string[];
  /** Other forms of a granted tool the agent accepts (MCP tools, tool sets). Tested on the name before any `(pattern)`. */
  toolForms: readonly RegExp[];
  /** Variables the agent replaces by the skill's folder in the body (`${CLAUDE_SKILL_DIR}/scripts/x.py`). */
  skillDirVariables: readonly string[];
  /** Files, relative to the skill folder, the agent reads by convention: nothing needs to mention them. */
  conventionFiles: readonly string[];
  /** True when the agent passes what the user types after the skill's slash command even with no `$ARGUMENTS` in the body. */
  appendsArguments: boolean;
}

const CLAUDE_CODE_TOOLS = [
  'Agent', 'AskUserQuestion', 'Bash', 'BashOutput', 'CronCreate', 'CronDelete', 'CronList', 'Edit', 'EnterPlanMode',
  'EnterWorktree', 'ExitPlanMode', 'ExitWorktree', 'Glob', 'Grep', 'KillShell', 'ListMcpResourcesTool', 'LS', 'LSP',
  'Monitor', 'MultiEdit', 'NotebookEdit', 'NotebookRead', 'PowerShell', 'Read', 'ReadMcpResourceTool', 'SendMessage',
  'Skill', 'SlashCommand', 'Task', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskOutput', 'TaskStop', 'TaskUpdate',
  'TeamCreate', 'TeamDelete', 'TodoRead', 'TodoWrite', 'ToolSearch', 'WebFetch', 'WebSearch', 'Workflow', 'Write',
];

/** `mcp__server__tool` (and `mcp__server` for all of a server's tools). */
const MCP_DOUBLE_UNDERSCORE = /^mcp__(?:[\w.-]+|\*)(?:__[\w.*-]+)?$/;
/** VS Code's tool references: a tool set or tool name, or `server/tool` and `server/*` (a server name may hold spaces). */
const VSCODE_QUALIFIED = /^[\w .-]+\/(?:[\w.-]+|\*)$/;

const CLAUDE_CODE: AgentProfile = {
  id: 'claude-code',
  label: 'Claude Code',
  fields: ['argument-hint', 'user-invocable', 'disable-model-invocation', 'when_to_use', 'arguments', 'disallowed-tools', 'model', 'effort', 'context', 'agent', 'hooks', 'paths', 'shell', 'version'],
  tools: CLAUDE_CODE_TOOLS,
  toolForms: [MCP_DOUBLE_UNDERSCORE],
  skillDirVariables: ['${CLAUDE_SKILL_DIR}', '$CLAUDE_SKILL_DIR'],
  conventionFiles: [],
  appendsArguments: true,
};

const CODEX: AgentProfile = {
  id: 'codex',
  label: 'Codex',
  fields: [],
  tools: [],
  toolForms: [],
  skillDirVariables: [],
  // The skill's UI metadata and tool dependencies (display name, icon, default prompt).
  conventionFiles: ['agents/openai.yaml'],
  appendsArguments: false,
};

const VSCODE: AgentProfile = {
  id: 'vscode',
  label: 'VS Code',
  fields: ['argument-hint', 'user-invocable', 'user-invokable', 'disable-model-invocation'],
  tools: [
    'agent', 'edit', 'execute', 'read', 'search', 'todo', 'vscode', 'web', 'changes', 'codebase', 'editFiles', 'extensions',
    'fetch', 'findTestFiles', 'githubRepo', 'new', 'openSimpleBrowser', 'problems', 'runCommands', 'runTasks', 'runTests',
    'runSubagent', 'searchResults', 'terminalLastCommand', 'terminalSelection', 'testFailure', 'think', 'todos', 'usages', 'vscodeAPI',
  ],
  toolForms: [VSCODE_QUALIFIED],
  skillDirVariables: [],
  conventionFiles: [],
  appendsArguments: true,
};

const COPILOT_CLI: AgentProfile = {
  id: 'copilot-cli',
  label: 'Copilot CLI',
  fields: [],
  // The tool kinds of its permissions (`--allow-tool 'shell(git:*)'`, `write`, `url`, `memory`).
  tools: ['shell', 'write', 'url', 'memory'],
  // `server(tool)` grants an MCP server's tool: its base name is the server's.
  toolForms: [/^[A-Za-z][\w.-]*$/],
  skillDirVariables: [],
  conventionFiles: [],
  appendsArguments: true,
};

const AGENTSKILLS: AgentProfile = {
  id: 'agentskills',
  label: 'the Agent Skills specification',
  fields: [],
  tools: [],
  toolForms: [],
  skillDirVariables: [],
  conventionFiles: [],
  appendsArguments: false,
};

/** Every agent's profile. */
export const AGENT_PROFILES: readonly AgentProfile[] = [VSCODE, CLAUDE_CODE, CODEX, COPILOT_CLI, AGENTSKILLS];

/** The agents a skill is linted for: one, or all of them for `any` (the default). */
export function agentsFor(id: AgentId | undefined): readonly AgentProfile[] {
  if (id === undefined || id === 'any') return AGENT_PROFILES;
  return AGENT_PROFILES.filter((h) => h.id === id);
}

/** True for a agent id. */
export function isAgentId(v: unknown): v is AgentId {
  return typeof v === 'string' && (AGENT_IDS as readonly string[]).includes(v);
}

/**
 * The agents of `agents` that grant `base` (a tool name without its pattern). Copilot CLI's catch-all form is
 * left out here unless it is the only agent, so `any` still reports a name no named table knows.
 */
export function agentsGrantingTool(base: string, agents: readonly AgentProfile[]): AgentProfile[] {
  return agents.filter((h) => h.tools.includes(base) || h.toolForms.some((re) => (h.id !== 'copilot-cli' || agents.length === 1) && re.test(base)));
}

/** True when any of `agents` reads `rel` (a path relative to the skill folder) by convention. */
export function isConventionFile(rel: string, agents: readonly AgentProfile[]): boolean {
  return agents.some((h) => h.conventionFiles.includes(rel));
}

/**
 * Placeholders for the skill's folder that skill collections write for agents outside these tables (`{baseDir}`).
 * A path through one is checked like any relative path whatever the agent.
 */
const OTHER_SKILL_DIR_VARIABLES = ['{baseDir}', '${SKILL_DIR}', '$SKILL_DIR'];

/** The skill-folder variables any of `agents` replaces, and the ones of other agents (a path through them is still a path in the skill). */
export function skillDirVariables(agents: readonly AgentProfile[]): string[] {
  const out = new Set<string>(OTHER_SKILL_DIR_VARIABLES);
  for (const h of agents) for (const v of h.skillDirVariables) out.add(v);
  return [...out];
}

/** True when every one of `agents` that reads `argument-hint` passes the arguments without `$ARGUMENTS`. */
export function argumentsReachTheModel(agents: readonly AgentProfile[]): boolean {
  const reading = agents.filter((h) => h.fields.includes('argument-hint'));
  return reading.length === 0 || reading.every((h) => h.appendsArguments);
}

/** The agents of `agents` that define a non-standard field. */
export function agentsDefiningField(key: string, agents: readonly AgentProfile[]): AgentProfile[] {
  return agents.filter((h) => h.fields.includes(key));
}
