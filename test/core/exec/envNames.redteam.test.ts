// Red team (issue 11, point 3): the refusal list compares whole names, and without a sandbox the launcher
// exports NAME=VALUE words, which split at the first "=". A call's `env: { "PYTHONPATH=<dir>:": "x" }`
// would pass the list and set PYTHONPATH (a sitecustomize.py running before the script). Held when tried:
// the request check refuses any key that is not a variable name before the list is consulted.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScriptRunError } from '../../../src/core/exec';
import { cleanup, onPath, setup, type Sandbox } from './helpers';

describe('core/exec env names (red team)', () => {
  let sb: Sandbox;
  before(() => {
    sb = setup();
  });
  after(() => cleanup(sb));

  it('refuses a name holding "=" that smuggles PYTHONPATH past the list, and the injected module never runs', async function () {
    if (!onPath('python3')) {
      console.log('      skipped: python3 is not on PATH');
      this.skip();
    }
    const evil = path.join(sb.tmp, 'evil');
    const marker = path.join(sb.tmp, 'injected');
    fs.mkdirSync(evil);
    fs.writeFileSync(path.join(evil, 'sitecustomize.py'), `open(${JSON.stringify(marker)}, 'w').write('ran')\n`);
    await assert.rejects(
      sb.runner({ sandbox: 'off' }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/hello.py', env: { [`PYTHONPATH=${evil}:`]: 'x' } }),
      (e: unknown) => {
        assert.ok(e instanceof ScriptRunError && e.code === 'invalid_request', String(e));
        assert.match(e.message, /env key "PYTHONPATH=.*" is not a valid variable name/);
        return true;
      },
    );
    assert.equal(fs.existsSync(marker), false, 'sitecustomize.py ran before the script');
  });

  it('refuses every key that is not a variable name, and keeps ordinary names', async () => {
    const run = (env: Record<string, string>) => sb.runner({ sandbox: 'off' }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'echo "$OK_name_2"', env });
    for (const name of ['BASH_ENV=/x', 'NODE_OPTIONS=--require=/x.js', '', '1ABC', 'A B', '-p', 'A\nB', 'X\0Y']) {
      await assert.rejects(run({ [name]: 'v' }), (e: unknown) => e instanceof ScriptRunError && e.code === 'invalid_request' && e.message.includes(`env key "${name}"`), JSON.stringify(name));
    }
    assert.equal((await run({ OK_name_2: 'kept' })).stdout, 'kept\n');
  });
});
