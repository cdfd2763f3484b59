// Installs, once, the MCP Inspector's command-line client (`mcpdo` in @modelcontextprotocol/inspector 2.x) into
// the git-ignored .cache/inspector, for test/cli/mcpInspector.test.ts: a client of our MCP server that we did not
// write. It needs Node >= 22.19, so it is installed and run with the Node 24 that setup-vscode.mjs installs.
// Usage: node scripts/setup-inspector.mjs (SKILLS_INSPECTOR_CACHE moves the folder).
import { node24Package } from './node24Package.mjs';

export const INSPECTOR_VERSION = '2.12.0';
const inspector = node24Package({
  label: 'setup-inspector',
  pkg: '@modelcontextprotocol/inspector',
  version: INSPECTOR_VERSION,
  dirName: 'inspector',
  cacheEnv: 'SKILLS_INSPECTOR_CACHE',
  bin: ['node_modules', '.bin', 'mcpdo'],
});
export const inspectorDir = inspector.dir;
/** Where `mcpdo` is and the Node that runs it. */
export const inspectorPaths = inspector.paths;
/** True when the pinned version is installed. */
export const inspectorInstalled = inspector.installed;
/** Installs the pinned Inspector with Node 24 unless present; throws with the reason when it cannot. */
export const ensureInspector = inspector.ensure;
inspector.mainIf(import.meta.url);
