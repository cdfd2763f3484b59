// dist/cli.js starts the CLI bundle with the V8 code cache scripts/build.mjs makes. The cache must be used when it
// fits, and must never stop the CLI when it does not: a damaged cache, or none, still gives a working CLI.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { makeTempDir } from '../support/tempDir';

const DIST = path.resolve(__dirname, '../../dist');

/** `agent-skills rules` (needs nothing beside the bundle) from the CLI in `dir`, reporting on its code cache. */
function version(dir: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(dir, 'cli.js'), 'rules'], { env: { ...process.env, AGENT_SKILLS_CODE_CACHE: 'report' }, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('dist/cli.js and the code cache of the CLI bundle', function () {
  this.timeout(BUILD_TIMEOUT_MS);
  let tmp: { dir: string; cleanup: () => void };
  before(() => ensureBuilt());
  beforeEach(() => {
    tmp = makeTempDir('cli-cache-');
  });
  afterEach(() => tmp.cleanup());

  const ruleLine = /^  skill-file-missing +strict error/m;

  it('the build made a cache that V8 accepts for this Node', () => {
    const r = version(DIST);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, ruleLine);
    assert.match(r.stderr, /^code cache: accepted$/m);
  });

  it('a damaged cache is rejected and the CLI still runs; without one it runs too', () => {
    for (const f of ['cli.js', 'cli-bundle.js']) fs.copyFileSync(path.join(DIST, f), path.join(tmp.dir, f));
    const cache = fs.readFileSync(path.join(DIST, 'cli-bundle.js.cache'));
    // Flip bytes in the middle: V8 would crash on it (seen with Node 20); the bootstrap's checksum refuses it first.
    for (let i = cache.length >> 1; i < (cache.length >> 1) + 64; i++) cache[i] ^= 0xff;
    fs.writeFileSync(path.join(tmp.dir, 'cli-bundle.js.cache'), cache);
    const damaged = version(tmp.dir);
    assert.equal(damaged.status, 0, damaged.stderr);
    assert.match(damaged.stdout, ruleLine);
    assert.match(damaged.stderr, /^code cache: rejected$/m);

    fs.rmSync(path.join(tmp.dir, 'cli-bundle.js.cache'));
    const none = version(tmp.dir);
    assert.equal(none.status, 0, none.stderr);
    assert.match(none.stderr, /^code cache: absent$/m);
  });

  it('a cache made for another bundle of the same length is rejected, not run as this one (V8 alone would take it)', () => {
    for (const f of ['cli.js', 'cli-bundle.js.cache']) fs.copyFileSync(path.join(DIST, f), path.join(tmp.dir, f));
    const bundle = fs.readFileSync(path.join(DIST, 'cli-bundle.js'), 'utf8');
    // The same length, one character different: V8 compares only the length of the source.
    const other = bundle.replace('"use strict";', "'use strict';");
    assert.notEqual(other, bundle);
    assert.equal(other.length, bundle.length);
    fs.writeFileSync(path.join(tmp.dir, 'cli-bundle.js'), other);
    const r = version(tmp.dir);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /^code cache: rejected$/m);
  });
});
