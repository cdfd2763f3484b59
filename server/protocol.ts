/**
 * The contract between the SKILL.md language server and its client: document selector, settings
 * names, initialization options and the custom `skills/<verb>` messages. Imported by the extension
 * (client) and the server alike, so it depends on nothing but the protocol types.
 */
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { Diagnostic } from 'vscode-languageserver-protocol';

/** Every file named SKILL.md, whatever language id the editor gave it. */
export const SKILL_DOCUMENT_SELECTOR = [
  { scheme: 'file', pattern: '**/SKILL.md' },
  { scheme: 'untitled', pattern: '**/SKILL.md' },
] as const;

/** plugin.json and mcp.json of Agent Plugins (the server answers only those in a plugin folder). */
export const PLUGIN_DOCUMENT_SELECTOR = [
  { scheme: 'file', pattern: '**/plugin.json' },
  { scheme: 'file', pattern: '**/mcp.json' },
  { scheme: 'file', pattern: '**/.mcp.json' },
] as const;

/** A skill's trigger set and eval set (src/core/evals): checked, completed and explained by the server. */
export const TRIGGER_DOCUMENT_SELECTOR = [
  { scheme: 'file', pattern: '**/evals/trigger-queries.json' },
  { scheme: 'file', pattern: '**/evals/evals.json' },
] as const;

/** Glob the client should watch so the server hears about files inside skill folders. */
export const SKILL_FILE_WATCH_GLOB = '**/*';

/** Settings section read by the server (`workspace/configuration` with this section). */
export const SETTINGS_SECTION = 'agentSkills';

/** Full setting keys, as contributed in package.json. */
export const SETTING_KEYS = {
  validationMode: 'agentSkills.validation.mode',
  validationDebounceMs: 'agentSkills.validation.debounceMs',
  deferToBuiltin: 'agentSkills.validation.deferToBuiltin',
  builtinSkillValidatorActive: 'agentSkills.validation.builtinSkillValidatorActive',
  traceServer: 'agentSkills.trace.server',
} as const;

/** Diagnostic `source` of every problem the server reports. */
export const DIAGNOSTIC_SOURCE = 'agent-skills';

/**
 * Options the client passes in `initialize` (`initializationOptions`). Every field is optional;
 * the same values can later arrive through `workspace/didChangeConfiguration`.
 */
export interface SkillServerInitOptions {
  /** `strict` (exactly the reference validator) or `lenient` (default). */
  mode?: 'strict' | 'lenient';
  /** Milliseconds to wait after a keystroke before validating; 0 validates at once. Default 200. */
  debounceMs?: number;
  /** Leave the problems VS Code's own skill validator already shows to it. Default true. */
  deferToBuiltin?: boolean;
  /** True when the client knows VS Code's built-in skill validator is running. Default false. */
  builtinSkillValidatorActive?: boolean;
  /** Scan the workspace folders for SKILL.md files at start. Default true. */
  scanWorkspace?: boolean;
  /**
   * True when the client shows its own hover on the frontmatter fields of `skill` documents (VS Code's skill
   * support does, for the fields in {@link BUILTIN_HOVER_FIELDS}): the server's hover on those fields then
   * keeps only what VS Code's lacks (the live count against the limit). Default false.
   */
  builtinFieldHover?: boolean;
}

/** The frontmatter fields VS Code's own skill hover explains (VS Code 1.139). */
export const BUILTIN_HOVER_FIELDS: readonly string[] = ['name', 'description', 'argument-hint', 'user-invocable', 'disable-model-invocation', 'license', 'compatibility', 'metadata', 'context'];

/** Result of `skills/validate`. */
export interface ValidateResult {
  uri: string;
  diagnostics: Diagnostic[];
}

/** Validates one SKILL.md (open or on disk) and returns the diagnostics the server would publish. */
export const ValidateRequest = new RequestType<{ uri: string }, ValidateResult, void>('skills/validate');

/** Sent by the server once the start-up workspace scan has published diagnostics for every SKILL.md found. */
export const WorkspaceScannedNotification = new NotificationType<{ skillFiles: string[] }>('skills/workspaceScanned');
