import type { z } from 'zod';
import type { SkillCatalog } from '../catalog/skillCatalog';
import type { SessionLoader } from '../catalog/catalogTypes';
import type { SkillTools } from '../runtime/skillTools';
import type { ToolNaming } from '../tools/toolNames';
import type { ToolResult } from '../tools/toolResult';

/**
 * Which tool surface (setting `agentSkills.toolSurface`, seed 003) a tool belongs to: `standard` (the runtime's
 * tools and list_skills) or `catalog` (runSkill, updateSkill).
 */
export type ToolFamily = 'standard' | 'catalog';

/** Who is calling: the front end that adapts the descriptors. */
export type ToolFrontEnd = 'vscode' | 'cli' | 'mcp' | 'test';

/** One skill as list_skills shows it. */
export interface ListedSkill {
  name: string;
  description: string;
  location: string;
}

/** What list_skills shows: the skills, and notes on what was left out and why (untrusted workspace, ...). */
export interface SkillListing {
  skills: ListedSkill[];
  notes: string[];
}

/** The services a host hands the tools; each is asked for only when a tool needs it. */
export interface ToolServices {
  /** The skill tools (sessions, the six runtime tools, the audit sink), as the assembly's `tools()` hands them out. */
  runtime(): Promise<SkillTools>;
  /** The unified catalog of runSkill / updateSkill; omitted by hosts that offer only the standard tools. */
  catalog?(): Promise<SkillCatalog>;
  /** How runSkill `run` loads a skill into the calling session; omitted: run does not load. */
  sessionLoader?: SessionLoader;
  /** The skills list_skills shows; omitted: every usable skill of the runtime's source, no notes. */
  listSkills?(sessionId: string): Promise<SkillListing>;
}

/** One call's facts: whose session, which model call, how to cancel it, through which host. */
export interface ToolCallContext {
  sessionId: string;
  /** The model's tool call id, when the host knows it. */
  callId?: string;
  signal?: AbortSignal;
  surface: ToolFrontEnd;
  services: ToolServices;
}

/** What an editor's tool list shows of a tool beyond its names (VS Code's `languageModelTools` entry). */
export interface ToolManifestUi {
  /** A codicon, e.g. `$(book)`. */
  readonly icon: string;
  /** The description for people. */
  readonly userDescription: string;
  /** Appended to the model description in the editor: how the tool behaves there. */
  readonly modelNote?: string;
}

/** How a front end words a call while it runs (plain text; a front end may add its own confirmation). */
export interface ToolWording {
  /** The line shown when the call starts. `target` names the skill a call without `skill` acts on. */
  invocation(input: Record<string, unknown>, target: (input: { skill?: string }) => string): string;
  /** The short progress line of a chat loop while the call runs (default `Calling <name>…`). */
  progress?(input: Record<string, unknown>): string;
}

/**
 * One tool, whatever the surface: its names, its input schema and model description, whether it changes anything,
 * how editors show it and word its calls, and how to run it. A new tool is one descriptor file plus its line in
 * toolTable.ts (test/build/newTool.test.ts counts them). VS Code, the CLI and MCP adapt descriptors;
 * none restates a name, a schema or an error.
 */
export interface ToolDescriptor<R = unknown> extends ToolNaming {
  /** The runtime's id for its own tools (`load`, `run_script`, ...); the name for the others. */
  readonly id: string;
  readonly family: ToolFamily;
  /** The zod schema of the input; hosts publish its JSON Schema (`inputJsonSchema`). */
  readonly input: z.ZodType;
  /** What the tool does, for the model. Host-specific notes are appended by the host. */
  readonly description: string;
  /** True when a call can change files or run code: hosts ask the user first. */
  readonly sideEffects: boolean;
  /**
   * True when a call reads or changes the calling session's state (its loaded skills, docs, lifecycle); false when
   * the session id serves only to name the call (audit). A host that keeps sessions elsewhere (MCP's state handles)
   * opens, and for a first call mints, a session only for tools where this is true.
   */
  readonly usesSession: boolean;
  /** What an editor's tool list shows (package.json's manifest is generated from it). */
  readonly manifest: ToolManifestUi;
  /** How a call is worded while it runs. */
  readonly wording: ToolWording;
  /** True when `invoke` writes the call's audit line itself (the runtime's and the catalog's tools); otherwise callTool does. */
  readonly auditsItself?: boolean;
  /** Runs the call. Refusals come back as `ok: false` with the one error shape; only bugs throw. */
  invoke(ctx: ToolCallContext, input: unknown): Promise<ToolResult<R>>;
  /** The model's view of a successful result when it is not simply the result as JSON (e.g. without log-only fields). */
  modelText?(result: R): string;
  /** The skills (by name) a call with this input acts on, for hosts that track what a turn used. */
  skillsNamed?(input: Record<string, unknown>): string[];
}
