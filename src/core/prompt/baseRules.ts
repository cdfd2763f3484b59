import type { SkillToolNames } from './types';

/**
 * The base rules of every call (seed 000), including the loading-required rule: the catalog only
 * describes skills, and the model must call load before using a skill's instructions, files or scripts.
 */
export function baseRules(tools: SkillToolNames, maxLoaded: number): string {
  return [
    'You can use Agent Skills: folders of instructions, reference files and scripts that extend what you can do. <available_skills> lists the installed skills by name and description.',
    'Skill rules:',
    `- Loading is required: before you follow a skill's instructions, read its files or run its scripts, call ${tools.load} with the skill's name. The list only describes skills; their instructions are not in your context until they are loaded.`,
    `- Load only the skills the current request needs (at most ${maxLoaded} at once). When the user names a skill (by its name, $name or #name), load that skill.`,
    `- Loaded instructions appear inside <skill name="..."> blocks. If two loaded skills conflict, follow the one loaded later. Call ${tools.unload} for skills you no longer need.`,
    `- Paths inside a skill are relative to its root folder; pass them unchanged to ${tools.read} and ${tools.run_script}.`,
  ].join('\n');
}

/** Seed 004's default tooling and workspace guidance, placed after the catalog. */
export function defaultToolingGuidance(tools: SkillToolNames): string {
  return [
    'Tooling and workspace guidance:',
    `- After loading, call ${tools.list_docs} to see a skill's docs and ${tools.select_docs} to add only the ones you need; avoid selecting all docs.`,
    `- Use ${tools.read} for files the skill references (the load result lists them), a slice at a time for large files.`,
    `- Use ${tools.run_script} only for scripts or commands the skill's instructions call for, not for general shell exploration.`,
    `- Scripts run in a fresh workspace: write results to $OUTPUT_DIR (out/) and collect them with outputs.globs; save files you need later (outputs.save) and read them back as artifact://name@version.`,
  ].join('\n');
}
