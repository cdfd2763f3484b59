// Builds what the real VS Code tests load: the extension (scripts/build.mjs), the scripted model
// test extension, and the in-host mocha index + suites.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import * as esbuild from 'esbuild';

/** Options every in-host bundle shares: CommonJS for the extension host, `vscode` provided by it. */
const hostBundle = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'inline',
  logLevel: 'warning',
  external: ['vscode'],
};

/** The extension's own bundles, exactly as `npm run build` makes them. */
export function buildExtension(root) {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('scripts/build.mjs failed; fix the build errors above first');
}

/**
 * Builds the scripted model test extension into `outDir` (package.json + dist/extension.js), a
 * folder of this run's own: concurrent runs must not rewrite a file another run is copying.
 * @param {string} root
 * @param {string} outDir
 */
export async function buildScriptedModel(root, outDir) {
  const src = join(root, 'test', 'scriptedModel');
  mkdirSync(outDir, { recursive: true });
  cpSync(join(src, 'package.json'), join(outDir, 'package.json'));
  // The skills it contributes (contributes.chatSkills), for the plugin-scope suite.
  cpSync(join(src, 'skills'), join(outDir, 'skills'), { recursive: true });
  await esbuild.build({ ...hostBundle, entryPoints: [join(src, 'extension.ts')], outfile: join(outDir, 'dist', 'extension.js') });
  return outDir;
}

/**
 * The suite files to run: SKILLS_VSCODE_SUITES (comma-separated paths) when set, else every
 * test/extension/suites/*.test.ts.
 * @param {string} root
 * @param {string | undefined} selection
 */
export function suiteFiles(root, selection) {
  if (selection) return selection.split(',').map((s) => resolve(root, s.trim())).filter(Boolean);
  const dir = join(root, 'test', 'extension', 'suites');
  return readdirSync(dir).filter((n) => n.endsWith('.test.ts')).sort().map((n) => join(dir, n));
}

/**
 * Bundles the mocha index and each suite into `outDir` (packages stay external: `outDir` must sit where
 * `require('mocha')` finds the project's node_modules, e.g. beside a link to it). Returns the index path
 * to give the workbench.
 * @param {string} root
 * @param {string} outDir
 * @param {string[]} suites
 */
export async function buildTestBundles(root, outDir, suites) {
  mkdirSync(join(outDir, 'suites'), { recursive: true });
  const opts = { ...hostBundle, packages: 'external' };
  const builds = [esbuild.build({ ...opts, entryPoints: [join(root, 'test', 'extension', 'index.ts')], outfile: join(outDir, 'index.js') })];
  const seen = new Set();
  for (const s of suites) {
    const name = basename(s).replace(/\.ts$/, '.js');
    if (seen.has(name)) throw new Error(`two suites compile to ${name} (${relative(root, s)}); rename one`);
    seen.add(name);
    builds.push(esbuild.build({ ...opts, entryPoints: [s], outfile: join(outDir, 'suites', name) }));
  }
  await Promise.all(builds);
  return join(outDir, 'index.js');
}

/**
 * Copies an extension folder (package.json + dist/) into an extensions folder as VS Code lays out
 * installed extensions (`publisher.name-version`), so a fresh code-server picks it up at start.
 * @param {string} extensionDir
 * @param {string} extensionsDir
 */
export function installUnpacked(extensionDir, extensionsDir) {
  const manifest = JSON.parse(readFileSync(join(extensionDir, 'package.json'), 'utf8'));
  const target = join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  mkdirSync(target, { recursive: true });
  cpSync(join(extensionDir, 'package.json'), join(target, 'package.json'));
  cpSync(join(extensionDir, 'dist'), join(target, 'dist'), { recursive: true });
  if (existsSync(join(extensionDir, 'skills'))) cpSync(join(extensionDir, 'skills'), join(target, 'skills'), { recursive: true });
  return target;
}
