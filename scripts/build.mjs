// Bundles the extension, the language server and the CLI into dist/ with esbuild.
// Usage: node scripts/build.mjs [--watch] [--minify]
import * as esbuild from 'esbuild';
import { chmodSync, existsSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const minify = process.argv.includes('--minify');

// ESM dependencies bundled into CJS (tinyglobby's fdir) call createRequire(import.meta.url): give them the file's URL.
const IMPORT_META_SHIM = "var __importMetaUrl = require('url').pathToFileURL(__filename).href;";

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
  { entryPoints: ['server/main.ts'], outfile: 'dist/server.js' },
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: `#!/usr/bin/env node\n${IMPORT_META_SHIM}` } },
].filter((e) => existsSync(e.entryPoints[0]));

const started = Date.now();
if (watch) {
  for (const e of entries) {
    const ctx = await esbuild.context({ ...common, ...e });
    await ctx.watch();
  }
  console.log('esbuild: watching', entries.map((e) => e.outfile).join(', '));
} else {
  await Promise.all(entries.map((e) => esbuild.build({ ...common, ...e })));
  if (existsSync('dist/cli.js')) chmodSync('dist/cli.js', 0o755);
  console.log(`esbuild: built ${entries.map((e) => e.outfile).join(', ')} in ${Date.now() - started} ms`);
}
