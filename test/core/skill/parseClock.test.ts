// The frontmatter parser's last-guard budget counts the work done, not the time passed: a thread that is not
// running (descheduled on a loaded machine) does no work, so a plain SKILL.md must not come back "too slow".
// Under load, the wall-clock budget once turned a 4-line skill into an error, and `agent-skills eval` judged a
// catalog of 3 skills instead of 4. The parse is held inside the budgeted part (the YAML library's toJS reads its
// options by destructuring, so a getter on Object.prototype runs there): once sleeping, once spinning.
import * as assert from 'node:assert/strict';
import { parseSkillFile } from '../../../src/core/skill';
import { FRONTMATTER_LIMITS } from '../../../src/core/skill/parseLimits';

const PLAIN = '---\nname: plain\ndescription: A plain skill.\nmetadata:\n  owner: me\n---\n# Plain\n';
const HOLD_MS = FRONTMATTER_LIMITS.budgetMs + 200;
const slowCodes = (r: ReturnType<typeof parseSkillFile>) => r.diagnostics.map((d) => (d.data as { yamlCode?: string } | undefined)?.yamlCode).filter((c) => c === 'FRONTMATTER_TOO_SLOW');

/** Parses PLAIN with `hold` run once inside the budgeted part; returns the result and the wall time it took. */
function parseHeld(hold: () => void): { parsed: ReturnType<typeof parseSkillFile>; held: boolean; wallMs: number } {
  let held = false;
  Object.defineProperty(Object.prototype, 'jsonArg', {
    configurable: true,
    get() {
      if (!held) {
        held = true;
        hold();
      }
      return undefined;
    },
  });
  const start = Date.now();
  try {
    return { parsed: parseSkillFile(PLAIN), held, wallMs: Date.now() - start };
  } finally {
    delete (Object.prototype as { jsonArg?: unknown }).jsonArg;
  }
}

describe('frontmatter parse budget: counted in CPU time, not wall-clock time', function () {
  // Each test does at most 0.7 s of CPU work; on a loaded 2-core machine getting that much CPU takes far longer
  // than mocha's 20 s default (it did at load 20), so the timeout here only guards a hang.
  this.timeout(180_000);

  it('a parse whose thread sleeps past the budget (as a descheduled one does) still reads a plain frontmatter', () => {
    const { parsed, held, wallMs } = parseHeld(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, HOLD_MS));
    assert.ok(held, 'the parse was held inside its budgeted part');
    assert.ok(wallMs >= HOLD_MS, `the parse took ${wallMs} ms of wall time`);
    assert.deepEqual(slowCodes(parsed), [], `a plain frontmatter was refused: ${parsed.diagnostics.map((d) => d.message).join('\n')}`);
    assert.deepEqual(parsed.diagnostics, []);
    assert.equal(parsed.properties.name, 'plain');
  });

  it('a parse that works past the budget (spinning on the CPU) is still refused as too slow', () => {
    const spin = () => {
      const start = process.cpuUsage();
      for (;;) {
        const used = process.cpuUsage(start);
        if ((used.user + used.system) / 1000 > HOLD_MS) return;
      }
    };
    const { parsed, held } = parseHeld(spin);
    assert.ok(held, 'the parse was held inside its budgeted part');
    assert.deepEqual(slowCodes(parsed), ['FRONTMATTER_TOO_SLOW']);
    assert.match(parsed.diagnostics[0].message, new RegExp(`took more than ${FRONTMATTER_LIMITS.budgetMs} ms of CPU time`));
  });
});
