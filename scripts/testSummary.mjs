// The closing lines of `npm test` (scripts/test.mjs): each pass with how many tests ran in it, then how many
// distinct tests ran over all passes (a test the unprivileged pass runs again is one test), and last the line
// CI reads, `N passed, N failed[, N skipped]`, over distinct tests. A distinct test failed if it failed in any
// pass, passed if it passed in one and failed in none, and was skipped if no pass ran it to a verdict.

/**
 * @typedef {{ name: string, user: string, passed: number, failed: number, skipped: number, tests?: [string, string][] }} PassRun
 *   `tests` lists each test that ended as [id, state]; a pass that gave none (it crashed, or an older reporter)
 *   counts its tests as its own, and its failures without a test id as failures of their own.
 */

/** @param {PassRun[]} runs @returns {{ lines: string[], distinct: { passed: number, failed: number, skipped: number, total: number, repeated: number }, runsTotal: number }} */
export function summarize(runs) {
  /** @type {Map<string, { states: Set<string>, passes: number }>} */
  const byId = new Map();
  const lines = ['', 'passes:'];
  let runsTotal = 0;
  runs.forEach((r, i) => {
    const ran = r.passed + r.failed + r.skipped;
    runsTotal += ran;
    lines.push(`  ${r.name.padEnd(22)} as ${r.user.padEnd(32)} ${ran} ran: ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`);
    const tests = [...(r.tests ?? [])];
    // Counts no id accounts for (a suite that never reported, a harness problem): entries of this pass alone.
    const missing = { passed: r.passed, failed: r.failed, skipped: r.skipped };
    for (const [, state] of tests) if (state in missing) missing[state] = Math.max(0, missing[state] - 1);
    for (const [state, n] of Object.entries(missing)) for (let k = 0; k < n; k++) tests.push([`pass ${i} (${r.name}, ${r.user}) #${state}${k}`, state]);
    const seen = new Set();
    for (const [id, state] of tests) {
      const e = byId.get(id) ?? { states: new Set(), passes: 0 };
      e.states.add(state);
      if (!seen.has(id)) e.passes++;
      seen.add(id);
      byId.set(id, e);
    }
  });
  const distinct = { passed: 0, failed: 0, skipped: 0, total: byId.size, repeated: 0 };
  for (const e of byId.values()) {
    if (e.passes > 1) distinct.repeated++;
    if (e.states.has('failed')) distinct.failed++;
    else if (e.states.has('passed')) distinct.passed++;
    else distinct.skipped++;
  }
  lines.push(`distinct tests: ${distinct.total} (${distinct.repeated} of them ran in more than one pass; ${runsTotal} test runs in all)`);
  lines.push('', `${distinct.passed} passed, ${distinct.failed} failed${distinct.skipped ? `, ${distinct.skipped} skipped` : ''}`);
  return { lines, distinct, runsTotal };
}
