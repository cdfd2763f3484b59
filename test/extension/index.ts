// Runs inside the real VS Code extension host (the workbench loads it as extensionTestsPath):
// mocha over every compiled suite next to this file. The harness (test/harness/runVscodeTests.mjs)
// compiles test/extension/suites/*.test.ts into ./suites/ and reads this output.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import Mocha from 'mocha';
import { OUT_MARKER, STATS_MARKER, TEST_MARKER, type TestEvent } from './markers';

/** Spec output for people, plus one marker line per test for the harness to count. */
class RelayReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const mark = (event: TestEvent) => console.log(`${TEST_MARKER}${JSON.stringify(event)}`);
    const { EVENT_TEST_BEGIN, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;
    runner.on(EVENT_TEST_BEGIN, (t) => mark({ state: 'started', title: t.fullTitle() }));
    runner.on(EVENT_TEST_PASS, (t) => mark({ state: 'passed', title: t.fullTitle() }));
    runner.on(EVENT_TEST_FAIL, (t, err) => mark({ state: 'failed', title: t.fullTitle(), error: String(err) }));
    runner.on(EVENT_TEST_PENDING, (t) => mark({ state: 'skipped', title: t.fullTitle() }));
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats;
      console.log(`${STATS_MARKER}${JSON.stringify({ passed: s?.passes ?? 0, failed: s?.failures ?? 0, skipped: s?.pending ?? 0 })}`);
    });
  }
}

export function run(): Promise<void> {
  Mocha.reporters.Base.useColors = false;
  // The workbench forwards this host's console to the harness mixed with its own logs; the
  // marker tells mocha's lines apart.
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => {
    for (const line of util.format(...args).split('\n')) console.log(`${OUT_MARKER}${line}`);
  };
  const mocha = new Mocha({
    ui: 'bdd',
    reporter: RelayReporter,
    color: false,
    timeout: Number(process.env.SKILLS_VSCODE_TEST_TIMEOUT_MS ?? 60_000),
    grep: process.env.SKILLS_VSCODE_GREP || undefined,
  });
  const dir = path.join(__dirname, 'suites');
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.test.js')).sort()) mocha.addFile(path.join(dir, f));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
}
