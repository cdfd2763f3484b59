// Mocha reporter: the spec reporter's output, plus the run's counts written as JSON to
// $MOCHA_STATS_FILE so scripts/test.mjs can add every suite into one closing line. `tests` names each
// test that ended ([id, state], id = file and full title; a failed hook counts as one failed entry), so
// the summary can count a test once however many passes ran it (scripts/testSummary.mjs).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const tests = [];
    const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;
    const id = (t) => `${t.file ? path.relative(process.cwd(), t.file) : '?'} :: ${t.type === 'hook' ? 'hook: ' : ''}${t.fullTitle()}`;
    runner.on(EVENT_TEST_PASS, (t) => tests.push([id(t), 'passed']));
    runner.on(EVENT_TEST_FAIL, (t) => tests.push([id(t), 'failed']));
    runner.on(EVENT_TEST_PENDING, (t) => tests.push([id(t), 'skipped']));
    runner.once(EVENT_RUN_END, () => {
      const file = process.env.MOCHA_STATS_FILE;
      if (!file) return;
      const s = runner.stats || {};
      fs.writeFileSync(file, JSON.stringify({ passed: s.passes || 0, failed: s.failures || 0, skipped: s.pending || 0, tests }));
    });
  }
}
module.exports = CountingReporter;
