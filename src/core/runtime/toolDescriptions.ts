import type { SkillToolName } from './toolSchemas';

/** What each tool does, for the model (VS Code `modelDescription`, MCP `description`). */
export const SKILL_TOOL_DESCRIPTIONS: Record<SkillToolName, string> = {
  load:
    "Load one or more Agent Skills by name (from <available_skills>) so their SKILL.md instructions are in your context for the next model calls. You must load a skill before following its instructions, reading its files or running its scripts. mode 'replace' (default) makes these the only loaded skills; 'add' keeps the others. The result lists each skill's root folder, digest, frontmatter and the files its instructions reference, which you may then read. A cap limits how many skills are loaded at once; if you hit it, load fewer or unload some.",
  unload: "Unload skills you no longer need (names), or all of them (all: true), so their instructions leave your context.",
  read:
    "Read a file of a loaded skill: a path relative to the skill's root (e.g. 'references/forms.md'), or a saved run output 'artifact://name[@version]'. Text comes back as text, binary files as base64 with their MIME type, folders as a listing. Large files come back in slices: if 'complete' is false, call again with offset = next_offset. Paths outside the skill folder are refused.",
  run_script:
    "Run a script of a loaded skill (script: a path under the skill root, e.g. 'scripts/extract.py'; the interpreter is chosen by extension or shebang) or a command line (command), in a fresh workspace where the skill is read-only and out/, work/ and inputs/ are writable. Stage files with 'inputs', collect results with 'outputs' (globs such as 'out/**'; save: true keeps them as artifacts). Returns exit_code, stdout, stderr, timed_out, duration and the output files. Only run what the skill's instructions call for.",
  list_docs: "List the docs (Markdown and text files) of a skill, with sizes and whether each is selected for your context.",
  select_docs:
    "Choose which docs of a loaded skill are injected into your context: mode 'add' (default), 'replace' or 'clear'. Select only the docs the task needs; include_all_docs selects every doc and can use a lot of context.",
};
