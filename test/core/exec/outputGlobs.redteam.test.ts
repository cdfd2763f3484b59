// Issue 22, second pair of eyes: a run's outputs were matched by tinyglobby, whose globs become backtracking
// regular expressions. `outputs.globs: ["out/*a*a*a*a*a*a*a*a*a*a*a*a*c"]` (the caller's) on a file named forty `a`s
// and a `b` (the script's) never came back: the runner's thread (the editor's extension host, the MCP server for
// every session) was held. Matching is now done without regular expressions (paths/globMatch.ts). Mocha's timeout
// is the deadline: before, the run did not return in hours. Real runner, real script; as root and unprivileged.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanup, setup, type Sandbox } from './helpers';

describe('core/exec output globs: a pattern and a file name built to backtrack cannot hold the runner (red team)', function () {
  this.timeout(30000);
  let sb: Sandbox;
  before(() => {
    sb = setup();
  });
  after(() => cleanup(sb));

  it('collects outputs for out/*a*a...*c against a file of forty a\'s, and still matches what it should', async () => {
    const root = path.join(sb.tmp, 'globs');
    fs.cpSync(sb.skillRoot, root, { recursive: true });
    const long = `${'a'.repeat(40)}b`;
    fs.writeFileSync(path.join(root, 'scripts', 'make.sh'), `cd "$OUTPUT_DIR"; : > ${long}; echo hit > ${'a'.repeat(12)}c; mkdir -p d; echo deep > d/xac\n`, { mode: 0o755 });
    const r = await sb.runner({ sandbox: 'off' }).run({
      skillName: 'globs',
      skillRoot: root,
      script: 'scripts/make.sh',
      timeoutMs: 15000,
      outputs: { globs: [`out/${'*a'.repeat(12)}*c`, 'out/**/x?c'] },
    });
    assert.equal(r.exit_code, 0, r.stderr);
    assert.deepEqual(r.output_files.map((f) => f.name), [`out/${'a'.repeat(12)}c`, 'out/d/xac']);
  });

  it('refuses an extended glob naming the field, before anything runs', async () => {
    await assert.rejects(
      sb.runner({ sandbox: 'off' }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/hello.sh', outputs: { globs: ['out/+(a|aa)*c'] } }),
      (e: Error & { code?: string }) => e.code === 'invalid_request' && e.message.includes('outputs.globs "out/+(a|aa)*c" cannot be used: extended globs'),
    );
  });
});
