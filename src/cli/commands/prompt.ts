import { renderAvailableSkills, type AvailableSkill } from '../../core/prompt/availableSkills';
import { readSkillDir, validateSkillContent } from '../../core/skill';
import type { CliCommand } from '../cliCommand';
import { resolveAllTargets } from '../skillTargets';
import { UsageError } from '../usageError';

/** `agent-skills prompt <path>...`: the `<available_skills>` block for these skills. */
export const promptCommand: CliCommand = {
  name: 'prompt',
  usage: 'prompt <path>...',
  summary: 'Print the <available_skills> block (name, description, location; XML-escaped) for skill folders, SKILL.md files or folders of skills. Skills that cannot load are left out and reported (exit 1).',
  async run(args) {
    const paths = args.filter((a) => !a.startsWith('-'));
    if (paths.length !== args.length) throw new UsageError(`unknown option ${args.find((a) => a.startsWith('-'))}.`);
    if (paths.length === 0) throw new UsageError('give at least one skill folder, SKILL.md file, or folder of skills.');
    const skills: AvailableSkill[] = [];
    let failed = 0;
    for (const t of await resolveAllTargets(paths)) {
      const read = await readSkillDir(t.dir);
      const errors = read.parsed
        ? validateSkillContent({ parsed: read.parsed, folderName: read.folderName, fileName: read.fileName }).diagnostics.filter((d) => d.severity === 'error')
        : read.diagnostics;
      if (!read.parsed || !read.file || errors.length > 0) {
        failed++;
        process.stderr.write(`Skipped ${t.display}:\n${errors.map((d) => `  - ${d.message}`).join('\n')}\n`);
        continue;
      }
      const name = read.parsed.properties.name;
      skills.push({
        name: typeof name === 'string' && name.trim() ? name.trim() : read.folderName,
        description: String(read.parsed.properties.description),
        location: read.file,
      });
    }
    process.stdout.write(`${renderAvailableSkills(skills)}\n`);
    return failed > 0 ? 1 : 0;
  },
};
