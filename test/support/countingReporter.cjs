// Mocha reporter: the spec reporter's output, plus the run's counts written as JSON to
// $MOCHA_STATS_FILE so scripts/test.mjs can add every suite into one closing line.
'use strict';
const fs = require('node:fs');
const Mocha = require('mocha');

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.MOCHA_STATS_FILE;
      if (!file) return;
      const s = runner.stats || {};
      fs.writeFileSync(file, JSON.stringify({ passed: s.passes || 0, failed: s.failures || 0, skipped: s.pending || 0 }));
    });
  }
}
module.exports = CountingReporter;
