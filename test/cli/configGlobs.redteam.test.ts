// Issue 22, second pair of eyes: a repository's lint configuration (`.agent-skills.yaml` `exclude`) was matched
// through a backtracking regular expression: `skills/*a*a*a*a*a*a*a*a*a*a*a*a*c` and a skill folder named forty `a`s
// and a `b` held `agent-skills validate` (and the language server) for good; before, killed after 20 s with nothing
// printed. Now matched by paths/globMatch.ts. The child's own deadline (spawnSync timeout) is the bound.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { CLI } from './mcpSupport';

describe('cli validate: a configuration exclude built to backtrack cannot hold validate (red team)', function () {
  let dir: string;
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfg-globs-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('validates a skill folder of forty a\'s under an exclude of twelve stars, and an exact exclude still excludes it', function () {
    this.timeout(60000);
    const name = `${'a'.repeat(40)}b`;
    fs.mkdirSync(path.join(dir, 'skills', name), { recursive: true });
    fs.writeFileSync(path.join(dir, 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: Config probe. Use when testing configuration excludes.\n---\nbody\n`);
    const validate = () => spawnSync(process.execPath, [CLI, 'validate', `skills/${name}`], { cwd: dir, encoding: 'utf8', timeout: 30000 });
    fs.writeFileSync(path.join(dir, '.agent-skills.yaml'), `exclude:\n  - 'skills/${'*a'.repeat(12)}*c'\n`);
    const r = validate();
    assert.equal(r.signal, null, 'validate was killed at its 30 s deadline');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`Valid skill: skills/${name}`));
    fs.writeFileSync(path.join(dir, '.agent-skills.yaml'), `exclude:\n  - 'skills/${'a'.repeat(20)}*b'\n`);
    const excluded = validate();
    assert.equal(excluded.status, 0, excluded.stderr);
    assert.doesNotMatch(excluded.stdout, /Valid skill/, excluded.stdout);
  });
});
