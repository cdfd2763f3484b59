// Mocha's settings. The spec list applies only when no test file is named on the command line:
// `npx mocha` runs every unit suite, `npx mocha test/core/exec/io.test.ts` runs that file alone
// (mocha would otherwise add the named files to the full list).
'use strict';

const ALL = ['test/core/**/*.test.ts', 'test/cli/**/*.test.ts', 'test/server/**/*.test.ts', 'test/build/**/*.test.ts'];

/** Arguments after mocha's own script that are not options (nor an option's value) name spec files. */
function namesFiles(argv) {
  const args = argv.slice(2);
  const takesValue = new Set(['--grep', '-g', '--fgrep', '-f', '--timeout', '-t', '--reporter', '-R', '--require', '-r', '--import', '--config', '--ui', '-u', '--file', '--ignore', '--exclude', '--extension', '--slow', '-s', '--jobs', '-j', '--reporter-option', '--reporter-options', '-O', '--retries']);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (takesValue.has(a)) i++;
    else if (a === '--spec') return true;
    else if (!a.startsWith('-')) return true;
  }
  return false;
}

module.exports = {
  import: 'tsx',
  ...(namesFiles(process.argv) ? {} : { spec: ALL }),
  timeout: 20000,
  reporter: 'test/support/countingReporter.cjs',
};
