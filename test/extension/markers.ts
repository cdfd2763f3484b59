// Prefixes of the machine-readable lines the in-host reporter prints and the harness reads.

/** Before each line of the human-readable mocha output. */
export const OUT_MARKER = '@@skills-out ';
/** Before one JSON TestEvent per finished test. */
export const TEST_MARKER = '@@skills-test ';
/** Before the final JSON {passed, failed, skipped}. */
export const STATS_MARKER = '@@skills-stats ';

/** One finished test. */
export interface TestEvent {
  state: 'passed' | 'failed' | 'skipped';
  title: string;
  error?: string;
}
