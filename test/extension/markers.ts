// Prefixes of the machine-readable lines the in-host reporter prints and the harness reads.

/** Before each line of the human-readable mocha output. */
export const OUT_MARKER = '@@skills-out ';
/** Before one JSON TestEvent per test that starts and per test that ends. */
export const TEST_MARKER = '@@skills-test ';
/** Before the final JSON {passed, failed, skipped}. */
export const STATS_MARKER = '@@skills-stats ';

/** A test that starts (`started`, so the harness can time it from its own start) or ends. */
export interface TestEvent {
  state: 'started' | 'passed' | 'failed' | 'skipped';
  title: string;
  error?: string;
}
