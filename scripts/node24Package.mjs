// One npm tool installed, once, into a git-ignored folder under .cache and run with the Node 24 that
// setup-vscode.mjs installs: the shared steps of setup-conformance.mjs and setup-inspector.mjs. From the npm
// registry only; a failed install throws with the reason (never a silent skip).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmInstallInto, vscodePaths } from './setup-vscode.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @param {{ pkg: string, version: string, dirName: string, cacheEnv: string, bin: string[], label: string }} spec
 *   `bin`: the entry's path inside the install folder; `cacheEnv`: the variable that moves the folder.
 */
export function node24Package(spec) {
  const dir = resolve(process.env[spec.cacheEnv] ?? join(root, '.cache', spec.dirName));
  const paths = () => ({ node: vscodePaths().node, bin: join(dir, ...spec.bin) });
  const installed = () => {
    try {
      return JSON.parse(readFileSync(join(dir, '.installed.json'), 'utf8')).version === spec.version && existsSync(paths().bin);
    } catch {
      return false;
    }
  };
  const ensure = () => {
    if (installed()) return paths();
    const { node, bin } = paths();
    if (!existsSync(node)) throw new Error(`Node 24 is not installed at ${node}: run node scripts/setup-vscode.mjs first (npm test does).`);
    const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` };
    npmInstallInto(dir, `${spec.pkg}@${spec.version}`, { node, env });
    if (!existsSync(bin)) throw new Error(`[${spec.label}] npm installed ${spec.pkg}@${spec.version} but ${bin} is missing; delete ${dir} and run again.`);
    writeFileSync(join(dir, '.installed.json'), JSON.stringify({ version: spec.version }));
    return paths();
  };
  /** Runs `ensure` when the calling script is the command being run, and says where the tool is. */
  const mainIf = (metaUrl) => {
    if (!process.argv[1] || resolve(process.argv[1]) !== fileURLToPath(metaUrl)) return;
    const p = ensure();
    console.log(`[${spec.label}] ${spec.pkg} ${spec.version}: ${p.bin} (run with ${p.node})`);
  };
  return { dir, paths, installed, ensure, mainIf };
}
