import { z } from 'zod';
import { RUNTIME_TOOL_IDS, type RuntimeToolId } from '../tools/toolNames';

/** Ids of the runtime's model-callable tools (their public names are in src/core/tools/toolNames.ts). */
export const SKILL_TOOL_NAMES: readonly RuntimeToolId[] = RUNTIME_TOOL_IDS;
export type SkillToolName = RuntimeToolId;

const skillName = z.string().min(1).max(200);
const relPath = z.string().min(1).max(4096);

export const loadInput = z
  .strictObject({
    names: z.array(skillName).min(1).describe('Skill names (or ids) from <available_skills> to load.'),
    mode: z
      .enum(['replace', 'add'])
      .optional()
      .describe("'replace' (default) makes these the only loaded skills; 'add' keeps the loaded ones and appends these."),
    docs: z.array(relPath).optional().describe('Docs (paths from list_docs) to inject with the body. Prefer loading the body first and selecting docs later.'),
    include_all_docs: z.boolean().optional().describe('Inject every doc of the skill. Avoid unless the task truly needs all of them.'),
  })
  .describe('Load skills so their SKILL.md instructions are injected into the next model calls.');

export const unloadInput = z
  .strictObject({
    names: z.array(skillName).min(1).optional().describe('Loaded skills to unload.'),
    all: z.boolean().optional().describe('true unloads every loaded skill.'),
  })
  .refine((v) => (v.names !== undefined) !== (v.all === true), { message: "Give either 'names' or 'all: true', not both and not neither." });

export const readInput = z.strictObject({
  skill: skillName.optional().describe('A loaded skill; defaults to the most recently loaded one.'),
  path: relPath.describe("A path relative to the skill's root (e.g. 'references/forms.md'), or 'artifact://name[@version]' for a saved run output."),
  offset: z.number().int().min(0).optional().describe('Byte offset to start at (default 0); use next_offset from a partial result.'),
  length: z.number().int().min(1).optional().describe('Bytes to read at most (default and maximum set by the runtime).'),
});

const inputSpec = z.strictObject({
  from: z.string().min(1).describe('workspace://rel/path, skill://<name>/rel/path, artifact://name[@version] or host:///abs/path (allowed folders only).'),
  to: z.string().min(1).optional().describe('Workspace-relative destination (default inputs/<basename>).'),
  mode: z.enum(['copy', 'link']).optional(),
});

const outputsSpec = z.strictObject({
  globs: z.array(z.string().min(1)).min(1).describe("Workspace-relative globs, e.g. 'out/**' or '$OUTPUT_DIR/*.json'."),
  inline: z.boolean().optional().describe('Inline text contents into the result (default true).'),
  save: z.boolean().optional().describe('Save the files as versioned artifacts readable as artifact://name@version.'),
  name_template: z.string().optional().describe("Prefix for artifact names, e.g. 'reports/'."),
  max_files: z.number().int().min(1).optional(),
  max_file_bytes: z.number().int().min(1).optional(),
  max_total_bytes: z.number().int().min(1).optional(),
});

export const runScriptInput = z
  .strictObject({
    skill: skillName.optional().describe('A loaded skill; defaults to the most recently loaded one.'),
    script: relPath.optional().describe("A script under the skill root, e.g. 'scripts/extract.py'. Interpreter by extension (.py python3, .sh bash, .js node, ...), else shebang."),
    command: z.string().min(1).max(8192).optional().describe('A command line run in the skill workspace instead of a script.'),
    args: z.array(z.string()).optional().describe('Arguments passed to the script.'),
    env: z.record(z.string(), z.string()).optional().describe('Extra environment variables.'),
    cwd: z.string().optional().describe('Working directory relative to the skill root, or starting with $WORK_DIR, $OUTPUT_DIR, ...'),
    timeout_seconds: z.number().positive().max(3600).optional().describe('Kill the script (and its children) after this many seconds.'),
    inputs: z.array(inputSpec).optional().describe('Files to stage into the workspace before the run.'),
    outputs: outputsSpec.optional().describe('Files to collect after the run.'),
    omit_inline_content: z.boolean().optional().describe('Return output file metadata only; read contents later.'),
  })
  .refine((v) => (v.script !== undefined) !== (v.command !== undefined), { message: "Give exactly one of 'script' and 'command'." });

export const listDocsInput = z.strictObject({
  skill: skillName.optional().describe('Skill name; defaults to the most recently loaded one.'),
});

export const selectDocsInput = z.strictObject({
  skill: skillName.optional().describe('A loaded skill; defaults to the most recently loaded one.'),
  docs: z.array(relPath).optional().describe('Doc paths from list_docs.'),
  include_all_docs: z.boolean().optional().describe('Select every doc.'),
  mode: z.enum(['add', 'replace', 'clear']).optional().describe("'add' (default) to the selection, 'replace' it, or 'clear' it."),
});

export type LoadInput = z.infer<typeof loadInput>;
export type UnloadInput = z.infer<typeof unloadInput>;
export type ReadInput = z.infer<typeof readInput>;
export type RunScriptInput = z.infer<typeof runScriptInput>;
export type ListDocsInput = z.infer<typeof listDocsInput>;
export type SelectDocsInput = z.infer<typeof selectDocsInput>;

/** The zod schema of each tool's input. */
export const toolInputSchemas = {
  load: loadInput,
  unload: unloadInput,
  read: readInput,
  run_script: runScriptInput,
  list_docs: listDocsInput,
  select_docs: selectDocsInput,
} satisfies Record<SkillToolName, z.ZodType>;

