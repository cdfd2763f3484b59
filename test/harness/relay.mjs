// Reads the workbench's log stream: prints the in-host mocha output, counts the marker lines
// test/extension/index.ts prints, and hides VS Code's own chatter unless asked for.
import { format } from 'node:util';

// Must match test/extension/markers.ts.
const OUT_MARKER = '@@skills-out ';
const TEST_MARKER = '@@skills-test ';
const STATS_MARKER = '@@skills-stats ';

/**
 * @param {{ verbose: boolean, print: (line: string) => void, onTest?: (event: { state: string, title: string }) => void }} o
 *   `onTest` hears each test start and end (the harness times a test from its own start).
 */
export function createRelay(o) {
  const live = { passed: 0, failed: 0, skipped: 0 };
  /** Each test that ended, [id, state], for the distinct count of scripts/testSummary.mjs (sessions share ids). */
  const tests = [];
  /** @type {{ passed: number, failed: number, skipped: number } | undefined} */
  let final;
  return {
    /** @param {string} level @param {unknown} args the console arguments, printf-style */
    onLog(level, args) {
      const text = Array.isArray(args) ? format(...args) : String(args);
      for (const line of text.split('\n')) {
        const out = line.indexOf(OUT_MARKER);
        if (out >= 0) {
          o.print(line.slice(out + OUT_MARKER.length));
          continue;
        }
        const at = line.indexOf(TEST_MARKER);
        if (at >= 0) {
          const e = JSON.parse(line.slice(at + TEST_MARKER.length));
          if (e.state in live) {
            live[e.state] += 1;
            tests.push([`vscode :: ${e.title}`, e.state]);
          }
          o.onTest?.(e);
          continue;
        }
        const st = line.indexOf(STATS_MARKER);
        if (st >= 0) {
          final = JSON.parse(line.slice(st + STATS_MARKER.length));
          continue;
        }
        if (o.verbose) o.print(`[${level}] ${line}`);
      }
    },
    sawStats: () => final !== undefined,
    stats: () => ({ ...(final ?? live), tests: [...tests] }),
  };
}
