import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DIAGNOSTIC_LIMITS } from '../../src/core/skill/diagnosticLimits';
import { PREFIXES, repeatTo, SHAPES } from '../support/prefixFamily';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { hangGuardTimeout, runBounded } from '../support/boundedChild';

const repoRoot = path.resolve(__dirname, '../..');
const cli = path.join(repoRoot, 'dist/cli.js');

/** Bytes one skill's findings may print as JSON: the per-file limits and a fixed part per finding. */
const MAX_SKILL_BYTES = DIAGNOSTIC_LIMITS.maxBytesPerFile + DIAGNOSTIC_LIMITS.maxPerFile * 400 + 4096;

/**
 * One `validate` of the 72 skills is about 3 s of CPU (3.1 s for each format, measured over the CLI's whole process
 * tree), and 10 to 12 s by the clock at load 16; at load 40 as uid 1001 it once outgrew a 600 s wall-clock timeout.
 * So the work is bounded in CPU time, at about 10x what it costs: a scanner gone quadratic on 1 MB takes far more.
 */
const CPU_BUDGET_MS = 30_000;
/** A hang guard only, far above a loaded run: a command still running this long by the clock is stuck, and is named. */
const HANG_MS = 900_000;

describe('agent-skills validate: the "repeat a prefix" family at 1 MB (issue 22, point 3)', function () {
  this.timeout(hangGuardTimeout(HANG_MS));
  let root: string;
  const dirs: string[] = [];

  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ask-cli-prefix-fuzz-'));
    PREFIXES.forEach((prefix, i) => {
      for (const shape of ['body'] as const) {
        const dir = path.join(root, `p${i}-${shape}`);
        fs.mkdirSync(dir);
        fs.writeFileSync(path.join(dir, 'SKILL.md'), SHAPES[shape](repeatTo(prefix, 1_000_000)));
        dirs.push(dir);
      }
    });
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  for (const format of ['json', 'text']) {
    it(`--format ${format}: every skill checked within ${CPU_BUDGET_MS / 1000} s of CPU, each one's output bounded, exit 0 or 1`, async () => {
      const what = `agent-skills validate --format ${format} (${dirs.length} skills of 1 MB)`;
      const r = await runBounded(process.execPath, [cli, 'validate', '--format', format, ...dirs], { cwd: root }, { what, cpuMs: CPU_BUDGET_MS, hangMs: HANG_MS });
      console.log(`      ${what}: ${r.cpuMs} ms of CPU, ${r.wallMs} ms by the clock`);
      assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}, signal ${r.signal}: ${r.stderr.slice(-2000)}`);
      const out = r.stdout + r.stderr;
      assert.ok(out.length <= dirs.length * MAX_SKILL_BYTES, `${out.length} bytes for ${dirs.length} skills`);
      if (format === 'json') {
        const results = JSON.parse(r.stdout) as { path: string; diagnostics: unknown[] }[];
        assert.equal(results.length, dirs.length);
        for (const x of results) {
          const bytes = JSON.stringify(x).length;
          assert.ok(bytes <= MAX_SKILL_BYTES && x.diagnostics.length <= DIAGNOSTIC_LIMITS.maxPerFile, `${x.path}: ${x.diagnostics.length} findings, ${bytes} bytes`);
        }
      } else {
        assert.match(r.stdout, new RegExp(`Checked ${dirs.length} skills`));
      }
    });
  }
});
