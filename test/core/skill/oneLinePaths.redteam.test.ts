// Red team (seventh round, attack23): personal-path (rules/portability.ts personalPaths) asked, for each home-folder
// path it found, where its line starts (leadStart, inLineComment: a search back to the line's start) and whether its
// line or the two before say "never"/"bad" (isCounterExample: the whole line read by a regular expression). On a text
// of one line, every path read the line again: quadratic. Distinct users (`/home/u1/x /home/u2/x …`, also
// `C:\Users\…`, `/Users/…`) escape the rule's one-hit-per-user dedupe, so a 256 KiB one-line SKILL.md took 13.5 s of
// `agent-skills validate` (6.9 s of CPU, load 12), and a 1 MiB script file minutes; the language server checks the
// same files. The prefix family of scannerFuzz.test.ts repeats one prefix, so one user: it never saw this. Now a line
// is read once per text, and its start found in the text's line index. The same shape of work (a search back to the
// line's start, or a read to its end, per hit) made script-path-incomplete (`python a.py` in inline code, repeated:
// 247 ms of CPU at 32 KiB, 4,138 ms at 128 KiB) and secret-printed (`echo $GITHUB_TOKEN `: 58 ms, 777 ms) quadratic too.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseSkillText, validateSkill } from '../../../src/core/skill';
import { removeTempDir } from '../../support/tempDir';
import { cpuMs } from '../../support/cpuTime';

/** One line of `n` characters: `make(0) make(1) …`, every path another user's. */
const counting = (make: (i: number) => string) => (n: number) => {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < n; i++) {
    parts.push(make(i));
    length += parts[parts.length - 1].length;
  }
  return parts.join('').slice(0, n);
};

/** Each shape, the rule it exercises (undefined: read and skipped, as a counter-example is), and where that rule reads. */
const SHAPES: Record<string, { make: (n: number) => string; rule?: string; markdownOnly?: boolean }> = {
  'home folders': { make: counting((i) => `/home/u${i}/x `), rule: 'personal-path' },
  'Windows profiles': { make: counting((i) => `C:\\Users\\u${i}\\x `), rule: 'personal-path' },
  'macOS homes, in a counter-example': { make: counting((i) => `never /Users/u${i}/x `) },
  // script-path-incomplete: each run's line searched back for its backticks, its block or line for a `cd`.
  'a script run by its bare name in inline code': { make: counting(() => '`python a.py` '), rule: 'script-path-incomplete', markdownOnly: true },
  // secret-printed: each echo's line read to its end for a pipe.
  'a secret echoed': { make: counting(() => 'echo $GITHUB_TOKEN '), rule: 'secret-printed', markdownOnly: true },
};

const SMALL = 32 * 1024;

describe('validate: one long line of many home-folder paths (red team)', function () {
  // A deadline for a hang only: before the fix the failing pass took ~90 s at load 12.
  this.timeout(600_000);
  let dir = '';
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'one-line-'));
    fs.mkdirSync(path.join(dir, 'scripts'));
    // The script the inline runs name without its folder.
    fs.writeFileSync(path.join(dir, 'scripts/a.py'), 'print(1)\n');
  });
  after(() => removeTempDir(dir));

  for (const where of ['SKILL.md body', 'script file'] as const) {
    it(`4x the ${where} costs at most 8x the CPU time (linear 4x, quadratic 16x), for each shape`, async () => {
      const slow: string[] = [];
      for (const [shape, { make, rule, markdownOnly }] of Object.entries(SHAPES)) {
        if (markdownOnly && where === 'script file') continue;
        const run = (n: number) => async () => {
          const line = make(n);
          fs.writeFileSync(path.join(dir, 'scripts/a.sh'), where === 'script file' ? `${line}\n` : 'echo hi\n');
          const body = where === 'SKILL.md body' ? line : 'Run scripts/a.sh.';
          const v = await validateSkill({ parsed: parseSkillText(`---\nname: fuzz\ndescription: Checks paths. Use when testing.\n---\n${body}\n`), folderName: 'fuzz', rootDir: dir });
          // The counter-example shape is read and skipped (its line says "never"); the others are reported.
          const found = v.diagnostics.filter((d) => d.rule === (rule ?? 'personal-path')).length;
          assert.equal(found > 0, rule !== undefined, `${shape}: ${found} ${rule ?? 'personal-path'} findings`);
        };
        await run(SMALL)();
        let verdict = '';
        for (let attempt = 0; attempt < 3; attempt++) {
          const small = Math.min(await cpuMs(run(SMALL)), await cpuMs(run(SMALL)));
          const large = Math.min(await cpuMs(run(4 * SMALL)), await cpuMs(run(4 * SMALL)));
          const limit = 8 * small + 40;
          verdict = large > limit ? `${shape} in the ${where}: ${small.toFixed(0)} ms of CPU at 32 KiB, ${large.toFixed(0)} ms at 128 KiB (limit ${limit.toFixed(0)})` : '';
          console.log(`      ${shape}: ${small.toFixed(0)} ms at 32 KiB, ${large.toFixed(0)} ms at 128 KiB`);
          if (!verdict) break;
        }
        if (verdict) slow.push(verdict);
      }
      assert.deepEqual(slow, [], 'these grow faster than linearly');
    });
  }
});
