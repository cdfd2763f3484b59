// `npm run package`: builds the bundles (minified) and packs them into a .vsix with @vscode/vsce.
// What goes in is decided by .vscodeignore (an allowlist); dependencies are bundled by esbuild,
// so vsce runs with --no-dependencies.
// Usage: node scripts/package.mjs [--out <file.vsix>]
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outArg = process.argv.indexOf('--out');
const out = resolve(outArg > 0 ? process.argv[outArg + 1] : join(root, `${manifest.name}-${manifest.version}.vsix`));

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    console.error(`package: \`${[cmd, ...args].join(' ')}\` failed (${r.status ?? r.signal}); see the output above`);
    process.exit(1);
  }
}

const started = Date.now();
run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--minify']);
const vsce = join(dirname(createRequire(import.meta.url).resolve('@vscode/vsce/package.json')), 'vsce');
run(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out]);
console.log(`package: ${out} (${Math.round(statSync(out).size / 1024)} KiB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
