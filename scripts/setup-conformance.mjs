// Installs, once, the official MCP conformance suite (@modelcontextprotocol/conformance, the suite the MCP SDKs
// are held to) into the git-ignored .cache/conformance, for test/cli/mcpConformance.test.ts. It needs Node >= 22,
// so it is installed and run with the Node 24 that setup-vscode.mjs installs. From the npm registry only.
// Usage: node scripts/setup-conformance.mjs (SKILLS_CONFORMANCE_CACHE moves the folder).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmInstallInto, vscodePaths } from './setup-vscode.mjs';

export const CONFORMANCE_VERSION = '0.2.0-alpha.12';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const conformanceDir = resolve(process.env.SKILLS_CONFORMANCE_CACHE ?? join(root, '.cache', 'conformance'));

/** Where the suite's entry is and the Node that runs it. */
export function conformancePaths() {
  return { node: vscodePaths().node, bin: join(conformanceDir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js') };
}

/** True when the pinned version is installed. */
export function conformanceInstalled() {
  try {
    return JSON.parse(readFileSync(join(conformanceDir, '.installed.json'), 'utf8')).version === CONFORMANCE_VERSION && existsSync(conformancePaths().bin);
  } catch {
    return false;
  }
}

/** Installs the pinned suite with Node 24 unless present; throws with the reason when it cannot. */
export function ensureConformance() {
  if (conformanceInstalled()) return conformancePaths();
  const { node } = conformancePaths();
  if (!existsSync(node)) throw new Error(`Node 24 is not installed at ${node}: run node scripts/setup-vscode.mjs first (npm test does).`);
  const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` };
  npmInstallInto(conformanceDir, `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`, { node, env });
  if (!existsSync(conformancePaths().bin)) throw new Error(`[setup-conformance] npm installed @modelcontextprotocol/conformance@${CONFORMANCE_VERSION} but ${conformancePaths().bin} is missing; delete ${conformanceDir} and run again.`);
  writeFileSync(join(conformanceDir, '.installed.json'), JSON.stringify({ version: CONFORMANCE_VERSION }));
  return conformancePaths();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const p = ensureConformance();
  console.log(`[setup-conformance] @modelcontextprotocol/conformance ${CONFORMANCE_VERSION}: ${p.bin} (run with ${p.node})`);
}
