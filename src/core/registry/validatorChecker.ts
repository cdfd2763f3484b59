import { isExcluded } from '../skill/config/loadConfig';
import type { SkillsHost } from '../host/skillsHost';
import { validateSkill, validateSkillContentDiagnostics } from '../skill/validateSkill';
import type { SkillChecker } from './loadSkill';

/**
 * The registry's default checker: the validator's content rules (file shape, frontmatter fields, body size)
 * in the registry's mode, with no I/O beyond the SKILL.md already read. Whether a skill is broken depends
 * only on these rules: reference and secret findings are warnings in both modes.
 */
export const contentChecker: SkillChecker = ({ parsed, folderName, fileName, mode, config, skillDir }) => {
  if (!config) return validateSkillContentDiagnostics(parsed, folderName, fileName, mode);
  // An excluded path is not linted: only what makes the skill unusable (errors of the default rules) remains.
  if (isExcluded(config, skillDir)) return validateSkillContentDiagnostics(parsed, folderName, fileName, mode).filter((d) => d.severity === 'error');
  return validateSkillContentDiagnostics(parsed, folderName, fileName, mode, config.config);
};

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
