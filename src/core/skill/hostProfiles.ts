/**
 * Host profiles: what each host of Agent Skills knows, from its public documentation, so a skill written for
 * one host is linted as that host reads it. One table per host; the rules ask the profile and hold no host
 * conditionals of their own. The default, `any`, accepts what any host accepts and leaves to the rules what
 * breaks everywhere or is not portable.
 *
 * Sources (read when this was written): Claude Code's skills and tools reference (code.claude.com/docs: skills,
 * tools-reference, permissions), Codex's skills documentation (developers.openai.com/codex/skills:
 * `agents/openai.yaml`), VS Code's agent skills documentation (code.visualstudio.com/docs/copilot/customization/
 * agent-skills), GitHub Copilot CLI's skills and permissions documentation (docs.github.com/copilot), and the
 * agentskills.io specification.
 */

/** A host a skill can be linted for; `any` is the default. */
export const HOST_IDS = ['any', 'claude-code', 'codex', 'vscode', 'copilot-cli', 'agentskills'] as const;
export type HostId = (typeof HOST_IDS)[number];

/** What one host knows. */
export interface HostProfile {
  id: Exclude<HostId, 'any'>;
  /** Shown in messages. */
  label: string;
  /** Frontmatter fields the host reads beyond the six of the specification. */
  fields: readonly string[];
  /** Tool names the host grants in `allowed-tools` (exact, case-sensitive). */
  tools: readonly string[];
  /** Other forms of a granted tool the host accepts (MCP tools, tool sets). Tested on the name before any `(pattern)`. */
  toolForms: readonly RegExp[];
  /** Variables the host replaces by the skill's folder in the body (`${CLAUDE_SKILL_DIR}/scripts/x.py`). */
  skillDirVariables: readonly string[];
  /** Files, relative to the skill folder, the host reads by convention: nothing needs to mention them. */
  conventionFiles: readonly string[];
  /** True when the host passes what the user types after the skill's slash command even with no `$ARGUMENTS` in the body. */
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

const CLAUDE_CODE: HostProfile = {
  id: 'claude-code',
  label: 'Claude Code',
  fields: ['argument-hint', 'user-invocable', 'disable-model-invocation', 'when_to_use', 'arguments', 'disallowed-tools', 'model', 'effort', 'context', 'agent', 'hooks', 'paths', 'shell', 'version'],
  tools: CLAUDE_CODE_TOOLS,
  toolForms: [MCP_DOUBLE_UNDERSCORE],
  skillDirVariables: ['${CLAUDE_SKILL_DIR}', '$CLAUDE_SKILL_DIR'],
  conventionFiles: [],
  appendsArguments: true,
};

const CODEX: HostProfile = {
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

const VSCODE: HostProfile = {
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

const COPILOT_CLI: HostProfile = {
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

const AGENTSKILLS: HostProfile = {
  id: 'agentskills',
  label: 'the Agent Skills specification',
  fields: [],
  tools: [],
  toolForms: [],
  skillDirVariables: [],
  conventionFiles: [],
  appendsArguments: false,
};

/** Every host's profile. */
export const HOST_PROFILES: readonly HostProfile[] = [VSCODE, CLAUDE_CODE, CODEX, COPILOT_CLI, AGENTSKILLS];

/** The hosts a skill is linted for: one, or all of them for `any` (the default). */
export function hostsFor(id: HostId | undefined): readonly HostProfile[] {
  if (id === undefined || id === 'any') return HOST_PROFILES;
  return HOST_PROFILES.filter((h) => h.id === id);
}

/** True for a host id. */
export function isHostId(v: unknown): v is HostId {
  return typeof v === 'string' && (HOST_IDS as readonly string[]).includes(v);
}

/**
 * The hosts of `hosts` that grant `base` (a tool name without its pattern). Copilot CLI's catch-all form is
 * left out here unless it is the only host, so `any` still reports a name no named table knows.
 */
export function hostsGrantingTool(base: string, hosts: readonly HostProfile[]): HostProfile[] {
  return hosts.filter((h) => h.tools.includes(base) || h.toolForms.some((re) => (h.id !== 'copilot-cli' || hosts.length === 1) && re.test(base)));
}

/** True when any of `hosts` reads `rel` (a path relative to the skill folder) by convention. */
export function isConventionFile(rel: string, hosts: readonly HostProfile[]): boolean {
  return hosts.some((h) => h.conventionFiles.includes(rel));
}

/**
 * Placeholders for the skill's folder that skill collections write for hosts outside these tables (`{baseDir}`).
 * A path through one is checked like any relative path whatever the host.
 */
const OTHER_SKILL_DIR_VARIABLES = ['{baseDir}', '${SKILL_DIR}', '$SKILL_DIR'];

/** The skill-folder variables any of `hosts` replaces, and the ones of other hosts (a path through them is still a path in the skill). */
export function skillDirVariables(hosts: readonly HostProfile[]): string[] {
  const out = new Set<string>(OTHER_SKILL_DIR_VARIABLES);
  for (const h of hosts) for (const v of h.skillDirVariables) out.add(v);
  return [...out];
}

/** True when every one of `hosts` that reads `argument-hint` passes the arguments without `$ARGUMENTS`. */
export function argumentsReachTheModel(hosts: readonly HostProfile[]): boolean {
  const reading = hosts.filter((h) => h.fields.includes('argument-hint'));
  return reading.length === 0 || reading.every((h) => h.appendsArguments);
}

/** The hosts of `hosts` that define a non-standard field. */
export function hostsDefiningField(key: string, hosts: readonly HostProfile[]): HostProfile[] {
  return hosts.filter((h) => h.fields.includes(key));
}
