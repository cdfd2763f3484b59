// Installs, once, the official MCP conformance suite (@modelcontextprotocol/conformance, the suite the MCP SDKs
// are held to) into the git-ignored .cache/conformance, for test/cli/mcpConformance.test.ts. It needs Node >= 22,
// so it is installed and run with the Node 24 that setup-vscode.mjs installs.
// Usage: node scripts/setup-conformance.mjs (SKILLS_CONFORMANCE_CACHE moves the folder).
import { node24Package } from './node24Package.mjs';

export const CONFORMANCE_VERSION = '0.2.0-alpha.12';
const suite = node24Package({
  label: 'setup-conformance',
  pkg: '@modelcontextprotocol/conformance',
  version: CONFORMANCE_VERSION,
  dirName: 'conformance',
  cacheEnv: 'SKILLS_CONFORMANCE_CACHE',
  bin: ['node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js'],
});
export const conformanceDir = suite.dir;
/** Where the suite's entry is and the Node that runs it. */
export const conformancePaths = suite.paths;
/** True when the pinned version is installed. */
export const conformanceInstalled = suite.installed;
/** Installs the pinned suite with Node 24 unless present; throws with the reason when it cannot. */
export const ensureConformance = suite.ensure;
suite.mainIf(import.meta.url);
