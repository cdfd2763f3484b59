import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateSkillDir, type AgentId, type RuleConfig } from '../../src/core/skill';
import { makeTempDir } from './tempDir';

/** The description every fixture skill gets unless it brings its own: says what and when. */
export const DESC = 'Formats release notes. Use when the user asks for release notes.';

/** A frontmatter with a name, a description and extra lines. */
export const fm = (name: string, extra: string, description = DESC) => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n`;

/**
 * Made-up skills for the linter's true and false cases (issue 25), written into one temp folder per suite:
 * call in a describe block; it registers the folder's before/after hooks. `rules` configures rules (e.g. turns on
 * one that is off by default).
 */
export function lintFixtures(prefix: string, rules: RuleConfig['rules'] = {}) {
  let tmp: { dir: string; cleanup: () => void };
  before(() => {
    tmp = makeTempDir(prefix);
  });
  after(() => tmp.cleanup());
  let n = 0;
  return {
    /** A fresh folder name. */
    next: () => ++n,
    /** Writes a skill (files: path -> text; SKILL.md gets a frontmatter unless it starts with ---) and returns its folder. */
    skill(files: Record<string, string | Buffer>, name = `s${++n}`): string {
      const dir = path.join(tmp.dir, name);
      for (const [rel, text] of Object.entries(files)) {
        const file = path.join(dir, rel);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        const body = rel === 'SKILL.md' && typeof text === 'string' && !text.startsWith('---') ? `---\nname: ${name}\ndescription: ${DESC}\n---\n${text}` : text;
        fs.writeFileSync(file, body);
      }
      return dir;
    },
    /** The rule ids (with file and 1-based line) reported for a skill in lenient mode. */
    async lint(dir: string, host?: AgentId, rule?: string): Promise<string[]> {
      const v = await validateSkillDir(dir, { mode: 'lenient', config: { rules, ...(host ? { host } : {}) } });
      return v.diagnostics.filter((d) => !rule || d.rule === rule).map((d) => `${d.rule}@${d.file ?? 'SKILL.md'}:${d.range.start.line + 1}`);
    },
    /** The messages of one rule for a skill in lenient mode. */
    async messages(dir: string, rule: string, host?: AgentId): Promise<string[]> {
      const v = await validateSkillDir(dir, { mode: 'lenient', config: { rules, ...(host ? { host } : {}) } });
      return v.diagnostics.filter((d) => d.rule === rule).map((d) => d.message);
    },
  };
}
