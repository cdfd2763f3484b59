// runSkill and updateSkill (seed 003) as descriptors: the catalog parses, runs and audits; here they get
// their names and descriptions; the catalog already answers with the one result shape.
import { invokeRunSkill } from '../../catalog/runSkillTool';
import { runSkillInputSchema, updateSkillInputSchema } from '../../catalog/catalogToolInputs';
import { invokeUpdateSkill } from '../../catalog/updateSkillTool';
import { ToolError } from '../../tools/toolError';
import type { ToolCallContext, ToolDescriptor } from '../toolDescriptor';
import { inputText as str } from '../toolWordingText';
import { CATALOG_TOOLS } from '../../tools/toolNames';

const { runSkill, updateSkill } = CATALOG_TOOLS;

/** Descriptions the model sees. */
export const CATALOG_TOOL_DESCRIPTIONS = {
  runSkill:
    'Discover, inspect and run skills (folders of instructions, scripts and references). ' +
    "action 'list' returns compact entries (filters: source, query, limit, activeOnly). " +
    "action 'inspect' returns a skill's full SKILL.md (or another file) raw and line-numbered with its versionRef, metadata and file list; " +
    'large files come as explicit parts (part k of n with nextOffset): call again with that offset until nextOffset is null. Nothing is ever cut off. ' +
    "action 'run' loads the skill into this conversation and returns its full instructions with arguments substituted, and its files. " +
    'Skills are addressed by canonical id (workspace:x, user:x, plugin:<ext>:x, pack:<pack>:x) or bare name.',
  updateSkill:
    "Create and edit skills. Prefer action 'patch' (a unified diff or line edits against the content and line numbers from runSkill inspect) over 'replace'. " +
    'Pass expectedVersionRef from inspect: if the file changed since, the call fails with the current ref and the diff between. ' +
    "Use dryRun: true to see the line-numbered diff and diagnostics first. Every write is validated (refused if it would make the skill invalid, unless force), atomic and recorded as a revision. " +
    "Other actions: 'metadata' (frontmatter fields, keeping comments and quoting), 'create', 'copy', 'archive', 'restore' (an archived skill, or an earlier revision with 'revision'). " +
    'Plugin and pack skills are edited through an overlay; their source is never changed.',
} as const;

async function catalogOf(ctx: ToolCallContext, tool: string) {
  if (!ctx.services.catalog) throw new ToolError('unknown_tool', `${tool} is not offered by this host.`, 'Use the tools you were given.');
  return ctx.services.catalog();
}

const skillOf = (input: Record<string, unknown>): string[] =>
  // Canonical ids (workspace:pdf) name the skill after the last colon.
  typeof input.skill === 'string' ? [input.skill.slice(input.skill.lastIndexOf(':') + 1)] : [];

/** What an updateSkill call acts on, in words: `workspace skill pdf` for a create, the skill otherwise. */
export function updateTarget(input: Record<string, unknown>): string {
  return input.action === 'create' ? `${str(input.scope)} skill ${str(input.name)}`.trim() : str(input.skill) || 'a skill';
}

export const runSkillDescriptor: ToolDescriptor = {
  ...runSkill,
  id: runSkill.name,
  family: 'catalog',
  input: runSkillInputSchema,
  description: CATALOG_TOOL_DESCRIPTIONS.runSkill,
  // `run` loads into the session; nothing on disk changes.
  sideEffects: false,
  // `run` loads into the session and `activeOnly` lists its loaded skills.
  usesSession: true,
  manifest: {
    icon: '$(run)',
    userDescription: 'List, inspect (in full) and run Agent Skills from every source: workspace, user, extensions and skill packs.',
    modelNote:
      " In VS Code, 'run' loads the skill into this chat's session (shown in the Skills view) exactly as loading it would, so its instructions stay with the conversation." +
      ' Workspace skills are not offered while the workspace is not trusted.',
  },
  wording: {
    invocation: (i) =>
      i.action === 'inspect'
        ? `Inspecting ${str(i.skill) || 'a skill'}${i.file ? `/${str(i.file)}` : ''}…`
        : i.action === 'run'
          ? `Running skill ${str(i.skill)}…`
          : str(i.query)
            ? `Listing skills matching "${str(i.query)}"…`
            : 'Listing skills…',
    progress: (i) => (i.action === 'run' ? `Running skill ${str(i.skill)}…` : i.action === 'inspect' ? `Inspecting ${str(i.skill)}…` : 'Listing skills…'),
  },
  // The catalog audits every call, also the CLI's.
  auditsItself: true,
  async invoke(ctx, input) {
    const catalog = await catalogOf(ctx, runSkill.name);
    const { audit } = await ctx.services.runtime();
    return invokeRunSkill(catalog, input ?? {}, { sessionId: ctx.sessionId }, { sessions: ctx.services.sessionLoader, audit });
  },
  skillsNamed: skillOf,
};

export const updateSkillDescriptor: ToolDescriptor = {
  ...updateSkill,
  id: updateSkill.name,
  family: 'catalog',
  input: updateSkillInputSchema,
  description: CATALOG_TOOL_DESCRIPTIONS.updateSkill,
  sideEffects: true,
  // Writes skill files; the session id only names the call in the audit log.
  usesSession: false,
  manifest: {
    icon: '$(edit)',
    userDescription: 'Create and patch Agent Skills with validated, revisioned writes (asks first, showing the diff).',
    modelNote:
      ' In VS Code, every write that is not a dry run asks the user to confirm, showing the diff; if they decline, do not retry the same change. ' +
      'Workspace skills cannot be changed while the workspace is not trusted (Restricted Mode): tell the user why instead of retrying. ' +
      'After a write the Skills view and the SKILL.md diagnostics show the new version.',
  },
  wording: {
    invocation: (i) => `Updating ${updateTarget(i)}…`,
    progress: (i) => `Updating ${str(i.skill) || str(i.name) || 'a skill'}…`,
  },
  // The catalog audits every call, also the CLI's.
  auditsItself: true,
  async invoke(ctx, input) {
    const catalog = await catalogOf(ctx, updateSkill.name);
    const { audit } = await ctx.services.runtime();
    return invokeUpdateSkill(catalog, input ?? {}, { audit, sessionId: ctx.sessionId });
  },
  skillsNamed: skillOf,
};
