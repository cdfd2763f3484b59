import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { scanSecrets, validateSkillDir } from '../../../src/core/skill';

// Secret-shaped values are assembled at run time so the repository itself holds no credential-shaped strings.
const j = (...parts: string[]) => parts.join('');
const SECRETS: [string, string][] = [
  ['API key (sk-…)', j('sk-', 'ant-api03-', 'Zx81kQ2mPq7Rt5Vw9Yb3Nc6Df0Gh4Jk')],
  ['AWS access key id', j('AK', 'IA', 'Q7XN3V5B2M4K6P8R')],
  ['GitHub token', j('gh', 'p_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8')],
  ['Slack token', j('xo', 'xb-', '7302915846-5190372864-QmWrTzPkLsNv')],
  ['private key', j('-----BEGIN ', 'RSA PRIVATE', ' KEY-----')],
  ['password or secret assignment', j('password', ' = "', 'Zq8-vL2x!pR', '"')],
];

describe('scanSecrets', () => {
  for (const [kind, value] of SECRETS) {
    it(`finds a ${kind}`, () => {
      const hits = scanSecrets(`line one\nconst x = ${value};\n`);
      assert.deepEqual(hits.map((h) => h.kind), [kind]);
    });
  }

  it('skips obvious placeholders', () => {
    const text = [
      j('api_key = "', 'sk-...', '"'),
      j('OPENAI_API_KEY=', 'sk-', 'xxxxxxxxxxxxxxxxxxxxxxxx'),
      j('token: "', 'your-api-key', '"'),
      j('password = "', '<token>', '"'),
      j('password = "', '${DB_PASSWORD}', '"'),
      j('AK', 'IA', 'IOSFODNN7EXAMPLE'),
      j('sk-', 'your-key-goes-here-1234567890'),
      // A variable named as the value, an ordinary word, a key that counts up: documentation, not credentials.
      j('api_key = "', '$API_KEY', '"'),
      j('password = "', 'hardcoded', '"'),
      j('xo', 'xb-', '1234567890-0987654321-AbCdEfGhIjKl'),
    ].join('\n');
    assert.deepEqual(scanSecrets(text), []);
  });

  it('reports file and line for secrets in any text file of the skill, not in binaries', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-'));
    const dir = path.join(root, 'leaky');
    fs.mkdirSync(path.join(dir, 'scripts', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: leaky\ndescription: Leaks. Use never.\n---\nKey: ${SECRETS[2][1]}\n`);
    fs.writeFileSync(path.join(dir, 'scripts', 'deep', 'env.sh'), `#!/bin/sh\n\nexport AWS=${SECRETS[1][1]}\n`);
    fs.writeFileSync(path.join(dir, 'scripts', 'blob.bin'), Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(SECRETS[1][1])]));
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.writeFileSync(path.join(dir, 'node_modules', 'x.js'), `k="${SECRETS[0][1]}"`);
    const v = await validateSkillDir(dir, { mode: 'lenient' });
    assert.deepEqual(
      v.diagnostics.filter((d) => d.rule === 'secret-detected').map((d) => [d.rule, d.file, d.range.start.line]),
      [
        ['secret-detected', undefined, 4],
        ['secret-detected', 'scripts/deep/env.sh', 2],
      ],
    );
    assert.equal(v.valid, true, 'a secret is a warning: the skill still loads');
    const off = await validateSkillDir(dir, { mode: 'lenient', scanSecrets: false });
    assert.deepEqual(off.diagnostics.filter((d) => d.rule === 'secret-detected'), []);
  });
});
