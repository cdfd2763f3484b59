import type { z } from 'zod';
import type { SkillCatalog } from '../catalog/skillCatalog';
import type { SessionLoader } from '../catalog/catalogTypes';
import type { SkillsRuntime } from '../runtime/skillsRuntime';
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
  /** The skills runtime (sessions, the six runtime tools, the audit log). */
  runtime(): Promise<SkillsRuntime>;
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

/**
 * One tool, whatever the surface: its names (from the table in toolNames.ts), its input schema and model
 * description, whether it changes anything, and how to run it. VS Code, the CLI and MCP adapt descriptors;
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
  /** Runs the call. Refusals come back as `ok: false` with the one error shape; only bugs throw. */
  invoke(ctx: ToolCallContext, input: unknown): Promise<ToolResult<R>>;
  /** The model's view of a successful result when it is not simply the result as JSON (e.g. without log-only fields). */
  modelText?(result: R): string;
  /** The skills (by name) a call with this input acts on, for hosts that track what a turn used. */
  skillsNamed?(input: Record<string, unknown>): string[];
}
