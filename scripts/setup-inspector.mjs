// Installs, once, the MCP Inspector's command-line client (`mcpdo` in @modelcontextprotocol/inspector 2.x) into
// the git-ignored .cache/inspector, for test/cli/mcpInspector.test.ts: a client of our MCP server that we did not
// write. It needs Node >= 22.19, so it is installed and run with the Node 24 that setup-vscode.mjs installs.
// Usage: node scripts/setup-inspector.mjs (SKILLS_INSPECTOR_CACHE moves the folder).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmInstallInto, vscodePaths } from './setup-vscode.mjs';

export const INSPECTOR_VERSION = '2.12.0';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const inspectorDir = resolve(process.env.SKILLS_INSPECTOR_CACHE ?? join(root, '.cache', 'inspector'));

/** Where `mcpdo` is and the Node that runs it. */
export function inspectorPaths() {
  return { node: vscodePaths().node, bin: join(inspectorDir, 'node_modules', '.bin', 'mcpdo') };
}

/** True when the pinned version is installed. */
export function inspectorInstalled() {
  try {
    return JSON.parse(readFileSync(join(inspectorDir, '.installed.json'), 'utf8')).version === INSPECTOR_VERSION && existsSync(inspectorPaths().bin);
  } catch {
    return false;
  }
}

/** Installs the pinned Inspector with Node 24 unless present; throws with the reason when it cannot. */
export function ensureInspector() {
  if (inspectorInstalled()) return inspectorPaths();
  const { node } = inspectorPaths();
  if (!existsSync(node)) throw new Error(`Node 24 is not installed at ${node}: run node scripts/setup-vscode.mjs first (npm test does).`);
  const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` };
  npmInstallInto(inspectorDir, `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`, { node, env });
  writeFileSync(join(inspectorDir, '.installed.json'), JSON.stringify({ version: INSPECTOR_VERSION }));
  return inspectorPaths();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const p = ensureInspector();
  console.log(`[setup-inspector] @modelcontextprotocol/inspector ${INSPECTOR_VERSION}: ${p.bin} (run with ${p.node})`);
}
