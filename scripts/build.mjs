// Bundles the extension, the language server and the CLI into dist/ with esbuild.
// Usage: node scripts/build.mjs [--watch] [--minify]
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, rmSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const minify = process.argv.includes('--minify');

// ESM dependencies bundled into CJS (tinyglobby's fdir) call createRequire(import.meta.url): give them the file's URL.
const IMPORT_META_SHIM = "var __importMetaUrl = require('url').pathToFileURL(__filename).href;";

// Large libraries needed only on demand (the source requires them inside the function that uses them) are
// built once into their own file in dist/vendor/ and left out of the entry bundles, which require that file
// instead: loading dist/extension.js or dist/cli.js then neither parses nor runs them until they are used.
const vendor = [
  // o200k tables, ~2.4 MB of source: src/core/prompt/tokenCounter.ts, on the first token count.
  { module: 'gpt-tokenizer/encoding/o200k_base', file: 'vendor/o200k.js' },
  // ~0.9 MB with its protocol: src/extension/languageClient.ts, when a SKILL.md is first opened.
  // The client re-exports the whole protocol library, so in the extension bundle server/protocol.ts (required
  // when the client starts) takes its message types from this same file instead of a second copy.
  { module: 'vscode-languageclient/node', file: 'vendor/languageClient.js', alsoIn: { 'dist/extension.js': ['vscode-languageserver-protocol'] } },
];
/** @returns {esbuild.Plugin} the plugin that points the entry bundle `outfile` at the vendor files. */
function vendorPlugin(outfile) {
  return {
    name: 'vendor',
    setup(b) {
      for (const v of vendor) {
        for (const m of [v.module, ...(v.alsoIn?.[outfile] ?? [])]) {
          const filter = new RegExp(`^${m.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
          // Every entry bundle sits directly in dist/, so the relative path holds for all of them.
          b.onResolve({ filter }, () => ({ path: `./${v.file}`, external: true }));
        }
      }
    },
  };
}

/**
 * zod re-exports every locale as `z.locales` (~350 KB of messages in forty languages); we only ever use English,
 * which zod imports on its own. The namespace is pointed at English alone, so no bundle parses the rest.
 * @type {esbuild.Plugin}
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir) ? { path: 'zod-locales-en', namespace: 'zod-locales' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({ contents: "export { default as en } from 'zod/v4/locales/en.js';", resolveDir: process.cwd(), loader: 'js' }));
  },
};

/** @type {esbuild.BuildOptions} */
const common = {
  define: { 'import.meta.url': '__importMetaUrl' },
  banner: { js: IMPORT_META_SHIM },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  minify,
  logLevel: 'warning',
  external: ['vscode'],
};

const entries = [
  { entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js' },
  { entryPoints: ['server/serverMain.ts'], outfile: 'dist/server.js' },
  // dist/cli.js is src/cli/bootstrap.cjs, which runs this bundle with V8's code cache (made below).
  { entryPoints: ['src/cli/cliMain.ts'], outfile: 'dist/cli-bundle.js' },
].filter((e) => existsSync(e.entryPoints[0]));
for (const e of entries) e.plugins = [vendorPlugin(e.outfile), zodEnglishOnly];
entries.push(
  ...vendor.map((v) => ({
    stdin: { contents: `module.exports = require(${JSON.stringify(v.module)});`, resolveDir: process.cwd(), loader: 'js' },
    outfile: `dist/${v.file}`,
    // Third-party code nobody steps through: the o200k tables shrink from 4.3 to 2.8 MB (load time unchanged).
    minifyWhitespace: true,
  })),
);

/**
 * dist/cli.js (the package's bin) and the code cache of the bundle it starts: V8 writes the cache after one run of
 * `--version`, with the functions that run compiled. A stale cache is removed first, so it never outlives its bundle.
 */
function writeCliEntry() {
  copyFileSync('src/cli/bootstrap.cjs', 'dist/cli.js');
  chmodSync('dist/cli.js', 0o755);
  rmSync('dist/cli-bundle.js.cache', { force: true });
  const r = spawnSync(process.execPath, ['dist/cli.js', '--version'], { env: { ...process.env, AGENT_SKILLS_CODE_CACHE: 'write' }, encoding: 'utf8' });
  // Without a cache the CLI still works, only slower to start: say so and go on.
  if (r.status !== 0 || !existsSync('dist/cli-bundle.js.cache')) console.warn(`esbuild: no code cache for dist/cli-bundle.js (${r.stderr || r.status})`);
}

const started = Date.now();
if (watch) {
  for (const e of entries) {
    const ctx = await esbuild.context({ ...common, ...e });
    await ctx.watch();
  }
  console.log('esbuild: watching', entries.map((e) => e.outfile).join(', '));
} else {
  await Promise.all(entries.map((e) => esbuild.build({ ...common, ...e })));
  if (existsSync('dist/cli-bundle.js')) writeCliEntry();
  console.log(`esbuild: built ${entries.map((e) => e.outfile).join(', ')} in ${Date.now() - started} ms`);
}
