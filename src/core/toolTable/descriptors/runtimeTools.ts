// The runtime's six tools as descriptors: schemas from the runtime (which parses with them), descriptions
// here, invoke through the runtime so every call is checked, routed to its session and audited in one place.
import { toolInputSchemas, type SkillToolName } from '../../runtime/runtimeToolInputs';
import type { ToolDescriptor, ToolManifestUi, ToolWording } from '../toolDescriptor';
import { inputList as names, inputText as str } from '../toolWordingText';
import { LIST_TOOL, RUNTIME_TOOLS, type RuntimeToolId } from '../../tools/toolNames';

/** What each tool does, for the model (VS Code `modelDescription`, MCP `description`). */
const DESCRIPTIONS: Record<RuntimeToolId, string> = {
  load:
    "Load one or more Agent Skills by name (from <available_skills>) so their SKILL.md instructions are in your context for the next model calls. You must load a skill before following its instructions, reading its files or running its scripts. mode 'replace' (default) makes these the only loaded skills; 'add' keeps the others. The result lists each skill's root folder, digest, frontmatter and the files its instructions reference, which you may then read. A cap limits how many skills are loaded at once; if you hit it, load fewer or unload some." +
    ` If you were given no <available_skills> list, call ${LIST_TOOL.name} first to see which skills exist.`,
  unload: 'Unload skills you no longer need (names), or all of them (all: true), so their instructions leave your context.',
  read:
    "Read a file of a loaded skill: a path relative to the skill's root (e.g. 'references/forms.md'), or a saved run output 'artifact://name[@version]'. Text comes back as text, binary files as base64 with their MIME type, folders as a listing. Large files come back in slices: if 'complete' is false, call again with offset = next_offset. Paths outside the skill folder are refused.",
  run_script:
    "Run a script of a loaded skill (script: a path under the skill root, e.g. 'scripts/extract.py'; the interpreter is chosen by extension or shebang) or a command line (command), in a fresh workspace where the skill is read-only and out/, work/ and inputs/ are writable. Stage files with 'inputs', collect results with 'outputs' (globs such as 'out/**'; save: true keeps them as artifacts). Returns exit_code, stdout, stderr, timed_out, duration and the output files. Only run what the skill's instructions call for.",
  list_docs: 'List the docs (Markdown and text files) of a skill, with sizes and whether each is selected for your context.',
  select_docs:
    "Choose which docs of a loaded skill are injected into your context: mode 'add' (default), 'replace' or 'clear'. Select only the docs the task needs; include_all_docs selects every doc and can use a lot of context.",
};

/** What an editor's tool list shows of each. */
const MANIFESTS: Record<RuntimeToolId, ToolManifestUi> = {
  load: { icon: '$(cloud-download)', userDescription: "Load Agent Skills so their instructions are in the chat's context." },
  unload: { icon: '$(close)', userDescription: "Unload Agent Skills from the chat's context." },
  read: { icon: '$(file)', userDescription: 'Read a file of a loaded Agent Skill (references, templates, saved outputs).' },
  run_script: { icon: '$(play)', userDescription: 'Run a script of a loaded Agent Skill in a fresh run folder, sandboxed where a sandbox works on this platform (asks first, and says whether it will be sandboxed).' },
  list_docs: { icon: '$(list-unordered)', userDescription: 'List the docs of an Agent Skill.' },
  select_docs: { icon: '$(checklist)', userDescription: "Choose which docs of a loaded Agent Skill are in the chat's context." },
};

/** How each call is worded while it runs. */
const WORDING: Record<RuntimeToolId, ToolWording> = {
  load: { invocation: (i) => `Loading ${names(i.names)}…`, progress: (i) => `Loading ${names(i.names)}…` },
  unload: {
    invocation: (i) => `Unloading ${i.all ? 'every loaded skill' : names(i.names)}…`,
    progress: (i) => (i.all ? 'Unloading every skill…' : `Unloading ${names(i.names)}…`),
  },
  read: {
    invocation: (i, target) => (str(i.path).startsWith('artifact://') ? `Reading ${str(i.path)}…` : `Reading ${str(i.path)} of ${target(i)}…`),
    progress: (i) => `Reading ${str(i.path)}…`,
  },
  run_script: {
    invocation: (i, target) => `Running ${str(i.script) || str(i.command) || '(nothing)'} of ${target(i)}…`,
    progress: (i) => `Running ${str(i.script) || str(i.command) || 'a script'}…`,
  },
  list_docs: { invocation: (i, target) => `Listing the docs of ${target(i)}…` },
  select_docs: {
    invocation: (i, target) => {
      const what = i.mode === 'clear' ? 'Clearing the doc selection' : i.include_all_docs ? 'Selecting every doc' : `Selecting ${Array.isArray(i.docs) && i.docs.length ? i.docs.join(', ') : 'docs'}`;
      return `${what} of ${target(i)}…`;
    },
  },
};

// Diagnostics for hosts and the audit log, not for the model.
const RUN_LOG_ONLY = new Set(['phases', 'argv']);
// Always kept, even when false or null: the model needs them to judge the run.
const RUN_ALWAYS = new Set(['exit_code', 'timed_out', 'sandboxed', 'stdout', 'stderr']);

/** A run result as the model sees it: without the log-only fields (phases, argv) and false/null/empty flags. */
export function runModelText(result: unknown): string {
  if (typeof result !== 'object' || result === null) return JSON.stringify(result);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(result)) {
    if (RUN_LOG_ONLY.has(k)) continue;
    if (!RUN_ALWAYS.has(k) && (v === false || v === null || (Array.isArray(v) && v.length === 0))) continue;
    out[k] = v;
  }
  return JSON.stringify(out);
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((n): n is string => typeof n === 'string') : []);
const namedSkill = (input: Record<string, unknown>): string[] => (typeof input.skill === 'string' ? [input.skill] : []);

/** What a call acts on, per tool (list_docs and unload use no skill). */
const SKILLS_NAMED: Partial<Record<RuntimeToolId, (input: Record<string, unknown>) => string[]>> = {
  load: (input) => strings(input.names),
  read: namedSkill,
  run_script: namedSkill,
  select_docs: namedSkill,
};

function runtimeTool(id: SkillToolName, sideEffects: boolean): ToolDescriptor {
  const naming = RUNTIME_TOOLS[id];
  return {
    ...naming,
    id,
    family: 'standard',
    input: toolInputSchemas[id],
    description: DESCRIPTIONS[id],
    sideEffects,
    // Every runtime tool acts on the session's loaded skills.
    usesSession: true,
    manifest: MANIFESTS[id],
    // The runtime audits every call, also those not made through a descriptor (a user's own run).
    auditsItself: true,
    wording: WORDING[id],
    async invoke(ctx, input) {
      const runtime = await ctx.services.runtime();
      const r = await runtime.invoke(id, input ?? {}, { sessionId: ctx.sessionId, callId: ctx.callId, signal: ctx.signal });
      // The runtime answers with its own id (its audit lines use it); every surface sees the public name.
      return { ...r, tool: naming.name };
    },
    ...(id === 'run_script' ? { modelText: runModelText } : {}),
    ...(SKILLS_NAMED[id] ? { skillsNamed: SKILLS_NAMED[id] } : {}),
  };
}

/** The six runtime tools, in the order hosts list them. Loads change only the session; a run runs code. */
export const runtimeToolDescriptors: readonly ToolDescriptor[] = [
  runtimeTool('load', false),
  runtimeTool('unload', false),
  runtimeTool('read', false),
  runtimeTool('run_script', true),
  runtimeTool('list_docs', false),
  runtimeTool('select_docs', false),
];
