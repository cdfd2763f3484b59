// Precision of the SKILL.md linter on published skills (../shared/realworld, judged findings), as numbers: per rule
// and overall for warnings and infos, recall of the judged-true findings and of the listed missed problems, and
// the wrong errors, for the default host and for each host profile. Goal: warnings+infos >= 90% precision, 0 wrong
// errors, every listed missed problem caught. The same comparison is a regression test (lintPrecision.test.ts).
import * as path from 'node:path';

interface Measured {
  precision: number;
  wrongErrors: unknown[];
  missed: { caught: number; of: number };
}
interface PrecisionScript {
  realworldDir(): string | undefined;
  measure(dir?: string, extraArgs?: string[]): Measured;
  report(m: Measured): string[];
}

async function main(): Promise<void> {
  const lint = (await import(path.resolve(__dirname, '../../scripts/lint-precision.mjs'))) as PrecisionScript;
  const dir = lint.realworldDir();
  if (!dir) {
    console.log('lint precision: not measured: shared/realworld not found beside the checkout (../shared) nor under AGENT_SKILLS_SHARED');
    process.exit(1);
  }
  const started = Date.now();
  const m = lint.measure(dir);
  console.log(`lint precision over ${dir} (default host, lenient; ${((Date.now() - started) / 1000).toFixed(1)} s for the whole run, machine shared and noisy)`);
  for (const l of lint.report(m)) console.log(l);
  for (const host of ['claude-code', 'codex', 'vscode', 'copilot-cli', 'agentskills']) {
    const h = lint.measure(dir, ['--host', host]);
    const line = lint.report(h).find((l) => l.startsWith('precision')) ?? '';
    console.log(`--host ${host}: ${line}; wrong errors ${h.wrongErrors.length} (verdicts were judged for the default host)`);
  }
  const ok = m.precision >= 0.9 && m.wrongErrors.length === 0;
  console.log(`${ok ? 'ok' : 'FAIL'}: warnings+infos precision ${(m.precision * 100).toFixed(1)}% (goal >= 90%), wrong errors ${m.wrongErrors.length} (goal 0), missed problems caught ${m.missed.caught}/${m.missed.of}`);
  process.exit(ok ? 0 : 1);
}

void main();
