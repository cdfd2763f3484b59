import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DIAGNOSTIC_LIMITS } from '../../src/core/skill/diagnosticLimits';
import { PREFIXES, repeatTo, SHAPES } from '../support/prefixFamily';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';

const repoRoot = path.resolve(__dirname, '../..');
const cli = path.join(repoRoot, 'dist/cli.js');

/** Bytes one skill's findings may print as JSON: the per-file limits and a fixed part per finding. */
const MAX_SKILL_BYTES = DIAGNOSTIC_LIMITS.maxBytesPerFile + DIAGNOSTIC_LIMITS.maxPerFile * 400 + 4096;

describe('agent-skills validate: the "repeat a prefix" family at 1 MB (issue 22, point 3)', function () {
  this.timeout(600_000);
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
    it(`--format ${format}: every skill checked, each one's output bounded, exit 0 or 1`, () => {
      const r = spawnSync(process.execPath, [cli, 'validate', '--format', format, ...dirs], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
      assert.ok(r.status === 0 || r.status === 1, `exit ${r.status}, signal ${r.signal}: ${r.stderr.slice(-2000)}`);
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
