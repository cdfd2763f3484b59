import { isExcluded } from '../skill/config/loadConfig';
import type { SkillsHost } from '../host/skillsHost';
import { validateSkill, validateSkillContentDiagnostics } from '../skill/validateSkill';
import { lenientErrorFree } from '../skill/lenientErrorFree';
import type { SkillChecker } from './skillChecker';

/**
 * The registry's default checker: the validator's content rules (file shape, frontmatter fields, body size)
 * in the registry's mode, with no I/O beyond the SKILL.md already read. Whether a skill is broken depends
 * only on these rules: reference and secret findings are warnings in both modes.
 */
export const contentChecker: SkillChecker = Object.assign(
  ({ parsed, folderName, fileName, mode, config, skillDir }: Parameters<SkillChecker>[0]) => {
    if (!config) return validateSkillContentDiagnostics(parsed, folderName, fileName, mode);
    // An excluded path is not linted: only what makes the skill unusable (errors of the default rules) remains.
    if (isExcluded(config, skillDir)) return validateSkillContentDiagnostics(parsed, folderName, fileName, mode).filter((d) => d.severity === 'error');
    return validateSkillContentDiagnostics(parsed, folderName, fileName, mode, config.config);
  },
  {
    // Without a configuration (which may raise any rule to an error) the lenient errors are few and cheap to rule out:
    // the warnings of a usable skill are then made when asked for (list, the Skills view), not at every scan.
    findsNoError: ({ parsed, mode, config }: Parameters<SkillChecker>[0]) => !config && mode === 'lenient' && lenientErrorFree(parsed),
  },
);

/**
 * The full validator: content rules plus missing/outside references and the secret scan of every text
 * file of the skill. Costs a folder walk per skill; use it where the warnings are shown (editor, CLI).
 */
export function createFullChecker(host?: SkillsHost): SkillChecker {
  return async ({ parsed, skillDir, folderName, fileName, mode, config }) => {
    if (config && isExcluded(config, skillDir)) return contentChecker({ parsed, skillDir, folderName, fileName, mode, config });
    return (await validateSkill({ parsed, folderName, rootDir: skillDir, fileName, host }, { mode, config: config?.config })).diagnostics;
  };
}
