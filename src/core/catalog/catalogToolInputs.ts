import { z } from 'zod';
import { lineEditSchema } from '../edit/editSpec';
import { frontmatterValueSchema } from './frontmatterEdit';

const skillRef = z.string().min(1).max(300).describe('A canonical id from runSkill list (e.g. "workspace:pdf", "plugin:acme.tools:pdf", "pack:demo:pdf") or a bare name, which resolves by precedence.');
const versionRef = z
  .string()
  .regex(/^sha256:[0-9a-f]{64}$/, 'a version ref looks like "sha256:" followed by 64 hex digits; copy it from runSkill inspect')
  .describe('The versionRef runSkill inspect returned for the file; the write fails if the file changed since.');
const relFile = z.string().min(1).max(1024).describe('Path of a text file inside the skill, relative to its folder. Default: SKILL.md.');

/** Input of the `runSkill` tool: discover, inspect and run skills. One flat object (checked per action), so every model API accepts the schema. */
export const runSkillInputSchema = z
  .strictObject({
    action: z.enum(['list', 'inspect', 'run']).describe('list: find skills; inspect: full content and metadata of a skill or one of its files; run: load a skill and get its instructions.'),
    skill: skillRef.optional().describe('inspect, run: the skill (canonical id or bare name).'),
    source: z.enum(['workspace', 'user', 'plugin', 'pack']).optional().describe('list: only skills from this source.'),
    query: z.string().max(500).optional().describe('list: words that must all appear in the name or description (case-insensitive).'),
    limit: z.number().int().min(1).max(1000).optional().describe('list: most entries to return (default 50); the result says how many more matched.'),
    activeOnly: z.boolean().optional().describe('list: only skills loaded in this session.'),
    file: relFile.optional(),
    offset: z.number().int().min(0).optional().describe('inspect: byte offset of the part to return, from the previous part\'s nextOffset. Large files come in explicit parts, never truncated.'),
    view: z.enum(['raw', 'numbered', 'both']).optional().describe('inspect: raw content, line-numbered content, or both (default both).'),
    history: z.boolean().optional().describe('inspect: include the revision history (seq, ref, reason, time) of the skill.'),
    arguments: z.union([z.string(), z.array(z.string())]).optional().describe('run: arguments for $ARGUMENTS / $ARGUMENTS[N] / $N placeholders ($0 is the first argument).'),
  })
  .superRefine((v, ctx) => {
    if (v.action !== 'list' && !v.skill) ctx.addIssue({ code: 'custom', path: ['skill'], message: `action '${v.action}' needs 'skill': a canonical id from runSkill list, or a bare name.` });
  });
export type RunSkillInput = z.infer<typeof runSkillInputSchema>;

/** Input of the `updateSkill` tool: create and edit skills, patch first. */
export const updateSkillInputSchema = z
  .strictObject({
    action: z
      .enum(['create', 'patch', 'replace', 'metadata', 'copy', 'archive', 'restore'])
      .describe('patch (preferred): a unified diff or line edits; replace: whole file; metadata: frontmatter fields; create; copy; archive; restore: an archived skill, or an earlier revision when `revision` is given.'),
    skill: skillRef.optional().describe('The skill to change (all actions but create).'),
    file: relFile.optional(),
    diff: z.string().min(1).optional().describe('patch: a unified diff of ONE file with @@ hunks, against the content from runSkill inspect.'),
    edits: z.array(lineEditSchema).min(1).optional().describe('patch: structured line edits, line numbers as in runSkill inspect.'),
    fuzzFactor: z.number().int().min(0).max(10).optional().describe('patch: context lines per hunk allowed to differ (default 2); offsets are reported.'),
    content: z.string().optional().describe('replace: the complete new content of the file.'),
    fields: z.record(z.string(), frontmatterValueSchema).optional().describe('metadata: frontmatter fields to set (dotted paths reach into mappings, e.g. "metadata.version"); null removes a field.'),
    scope: z.enum(['workspace', 'user']).optional().describe('create: where the new skill goes.'),
    name: z.string().min(1).max(64).optional().describe('create: the new skill name (lowercase letters, digits, hyphens).'),
    description: z.string().min(1).max(1024).optional().describe('create: what the skill does and when to use it.'),
    body: z.string().optional().describe('create: the Markdown instructions after the frontmatter.'),
    frontmatter: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional().describe('create: extra frontmatter fields.'),
    files: z.array(z.strictObject({ path: z.string().min(1), content: z.string() })).optional().describe('create: extra files (e.g. scripts/run.py).'),
    toScope: z.enum(['workspace', 'user']).optional().describe('copy: target scope.'),
    toName: z.string().min(1).max(64).optional().describe('copy: new name (default: the same name).'),
    revision: z.union([z.number().int().min(1), z.string().min(1)]).optional().describe('restore: the revision seq or version ref to bring back (from runSkill inspect with history: true).'),
    expectedVersionRef: versionRef.optional(),
    dryRun: z.boolean().optional().describe('Compute and return the diff and diagnostics without writing.'),
    force: z.boolean().optional().describe('Write even when the result fails validation (the errors come back as warnings).'),
    reason: z.string().max(500).optional().describe('Why: recorded in the revision history.'),
  })
  .superRefine((v, ctx) => {
    const need = (field: keyof typeof v, why: string) => {
      if (v[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `action '${v.action}' needs '${field}': ${why}` });
    };
    if (v.action !== 'create') need('skill', 'a canonical id from runSkill list, or a bare name.');
    if (v.action === 'patch' && (v.diff === undefined) === (v.edits === undefined)) ctx.addIssue({ code: 'custom', path: ['diff'], message: "action 'patch' needs exactly one of 'diff' (unified diff) or 'edits' (line edits)." });
    if (v.action === 'replace') need('content', 'the complete new file content.');
    if (v.action === 'metadata') need('fields', 'the frontmatter fields to set, e.g. {"description": "…"}.');
    if (v.action === 'create') {
      need('scope', "'workspace' or 'user'.");
      need('name', 'the new skill name.');
      need('description', 'what the skill does and when to use it.');
      need('body', 'the Markdown instructions.');
    }
    if (v.action === 'copy') need('toScope', "'workspace' or 'user'.");
  });
export type UpdateSkillInput = z.infer<typeof updateSkillInputSchema>;

