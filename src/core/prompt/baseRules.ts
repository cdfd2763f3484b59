import type { CatalogToolNamesForPrompt, SkillToolNames } from './promptTypes';

/**
 * The base rules of every call (seed 000), including the loading-required rule: the catalog only
 * describes skills, and the model must call load before using a skill's instructions, files or scripts.
 */
export function baseRules(tools: SkillToolNames, maxLoaded: number): string {
  return [
    'Agent Skills are folders of instructions, files and scripts; <available_skills> lists them by name and description.',
    'Skill rules:',
    `- Loading is required: call ${tools.load} with a skill's name before you follow its instructions, read its files or run its scripts. The list only describes skills.`,
    `- Load only what the request needs (at most ${maxLoaded} skills). If the user names a skill (name, $name or #name), load it.`,
    `- Loaded instructions appear in <skill name="..."> blocks; on conflict the later-loaded skill wins. ${tools.unload} skills you no longer need.`,
    `- Skill paths are relative to the skill's root; pass them unchanged to ${tools.read} and ${tools.run_script}.`,
  ].join('\n');
}

/** Seed 004's default tooling and workspace guidance, placed after the catalog. */
export function defaultToolingGuidance(tools: SkillToolNames): string {
  return [
    'Tooling and workspace guidance:',
    `- ${tools.list_docs} shows a skill's docs; ${tools.select_docs} adds only those you need (avoid all docs).`,
    `- ${tools.read} fetches files the skill references (listed by ${tools.load}), in slices for large files.`,
    `- ${tools.run_script} runs only what the skill's instructions call for, in a fresh workspace: write results to $OUTPUT_DIR (out/), collect them with outputs.globs, save them (outputs.save) to read later as artifact://name@version.`,
  ].join('\n');
}

/**
 * The base rules when skills are reached as MCP resources and no tool is offered (`agent-skills mcp --no-tools`,
 * the server the extension offers VS Code's agents beside its own tools): read, do not load.
 */
export function resourceBaseRules(maxLoaded: number): string {
  return [
    'Agent Skills are folders of instructions, files and scripts; <available_skills> lists them by name and description.',
    'Skill rules:',
    '- Reading is required: read the resource skill://<name>/SKILL.md before you follow a skill\'s instructions; its other files are skill://<name>/<path>. The list only describes skills.',
    `- Read only the skills the request needs (at most ${maxLoaded}). If the user names a skill (name, $name or #name), read it.`,
    '- This server runs no scripts: where a skill says to run one, show the user the command instead.',
  ].join('\n');
}

/**
 * The base rules when the model has only the unified catalog's two tools (seed 003's `minimal` surface): the
 * same contract as {@link baseRules}, worded for runSkill / updateSkill and naming no other tool.
 */
export function catalogBaseRules(tools: CatalogToolNamesForPrompt, maxLoaded: number): string {
  return [
    'Agent Skills are folders of instructions, files and scripts; <available_skills> lists them by name and description.',
    'Skill rules:',
    `- Running is required: call ${tools.runSkill} with action "run" and a skill's name before you follow its instructions or use its files. The list only describes skills.`,
    `- Run only the skills the request needs (at most ${maxLoaded} at once). If the user names a skill (name, $name or #name), run it.`,
    '- Instructions of skills you ran appear in <skill name="..."> blocks; on conflict the later one wins.',
    `- Change skills only through ${tools.updateSkill}.`,
  ].join('\n');
}
