/**
 * `npm run test:unit` (scripts/testUnit.mjs) sets SKILLS_TEST_QUICK=1: the longest sampling tests (the
 * language-server fuzz, the SIGKILL crash test) then run a smaller sample. `npm test` and a plain
 * `npx mocha` run them at full size.
 */
export const QUICK = process.env.SKILLS_TEST_QUICK === '1';

/** `full`, or `quick` in a quick run, which says so (when the test file loads) so nobody mistakes it for the full one. */
export function testSize(what: string, full: number, quick: number): number {
  if (!QUICK) return full;
  console.log(`      quick run: ${quick} of ${full} ${what} (npm test runs all ${full})`);
  return quick;
}
