import { parseArgs } from 'node:util';
import { validateSkillDir, type SkillDiagnostic } from '../../core/skill';
import type { CliCommand } from '../commands';
import { resolveAllTargets } from '../skillTargets';
import { UsageError } from '../usageError';

/** One skill's result in `--json` output. */
interface JsonResult {
  path: string;
  name: string;
  valid: boolean;
  diagnostics: Pick<SkillDiagnostic, 'rule' | 'severity' | 'message' | 'range' | 'file'>[];
}

/**
 * `agent-skills validate <path>... [--strict] [--json]`. Human output follows the reference CLI
 * (`Valid skill: <path>`, or `Validation failed for <path>:` and `  - <message>` lines on stderr);
 * warnings and notes follow as `  warning: …` / `  info: …` lines.
 */
export const validateCommand: CliCommand = {
  name: 'validate',
  usage: 'validate <path>... [--strict] [--json]',
  summary: 'Validate skill folders, SKILL.md files or folders of skills (exit 1 if any is invalid). --strict: exactly the agentskills.io reference rules.',
  async run(args) {
    let parsed;
    try {
      parsed = parseArgs({ args, options: { strict: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } }, allowPositionals: true, strict: true });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const { values, positionals } = parsed;
    if (positionals.length === 0) throw new UsageError('give at least one skill folder, SKILL.md file, or folder of skills.');
    const targets = await resolveAllTargets(positionals);
    const mode = values.strict ? 'strict' : 'lenient';
    const results: JsonResult[] = [];
    for (const t of targets) {
      const v = await validateSkillDir(t.dir, { mode });
      results.push({
        path: t.display,
        name: v.name,
        valid: v.valid,
        diagnostics: v.diagnostics.map((d) => ({ rule: d.rule, severity: d.severity, message: d.message, range: d.range, ...(d.file ? { file: d.file } : {}) })),
      });
    }
    if (values.json) {
      process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
    } else {
      for (const r of results) writeHuman(r);
      if (results.length > 1) {
        const bad = results.filter((r) => !r.valid).length;
        process.stdout.write(`Checked ${results.length} skills (${mode}): ${results.length - bad} valid, ${bad} invalid.\n`);
      }
    }
    return results.every((r) => r.valid) ? 0 : 1;
  },
};

function writeHuman(r: JsonResult): void {
  const out = r.valid ? process.stdout : process.stderr;
  const lines = [r.valid ? `Valid skill: ${r.path}` : `Validation failed for ${r.path}:`];
  for (const d of r.diagnostics) if (d.severity === 'error') lines.push(`  - ${d.message}`);
  for (const d of r.diagnostics) {
    if (d.severity === 'error') continue;
    lines.push(`  ${d.severity}: ${d.message} [${d.rule} ${d.file ?? 'SKILL.md'}:${d.range.start.line + 1}:${d.range.start.character + 1}]`);
  }
  out.write(`${lines.join('\n')}\n`);
}
