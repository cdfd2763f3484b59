import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createAsyncNodeHost, createNodeHost, createSkillRegistry } from '../../../src/core/registry';
import { invalidUtf8Skill } from '../../support/hostileDocs';
import { tempDir, writeSkill } from './registryTestUtil';

describe('registry: special and oversized SKILL.md files (issue 11, point 7)', function () {
  this.timeout(60_000);
  let root: string;

  before(function () {
    if (process.platform === 'win32') {
      console.log('      skipped: FIFOs made with mkfifo do not exist on Windows');
      this.skip();
    }
    root = tempDir('registry-special-');
    writeSkill(root, 'good');
    fs.mkdirSync(path.join(root, 'piped'));
    execFileSync('mkfifo', [path.join(root, 'piped', 'SKILL.md')]);
    fs.mkdirSync(path.join(root, 'huge'));
    const fd = fs.openSync(path.join(root, 'huge', 'SKILL.md'), 'w');
    fs.ftruncateSync(fd, 64 * 1024 * 1024); // sparse: no disk space, but over the 16 MiB limit
    fs.closeSync(fd);
    fs.mkdirSync(path.join(root, 'bytes'));
    fs.writeFileSync(path.join(root, 'bytes', 'SKILL.md'), invalidUtf8Skill('bytes'));
  });
  after(() => {
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  for (const kind of ['sync', 'async'] as const) {
    it(`lists the others and reports each one on its own skill (${kind} host)`, async () => {
      const host = kind === 'sync' ? createNodeHost() : createAsyncNodeHost();
      const reg = createSkillRegistry({ roots: [{ path: root, scope: 'user' }], host });
      // Before the fix the sync host blocked here for ever on the FIFO (no writer ever opens it).
      await reg.refresh();
      const byName = new Map(reg.all().map((r) => [r.name, r]));
      assert.equal(byName.get('good')?.status, 'ok');
      // Invalid UTF-8 is decoded with replacement characters and still listed.
      assert.equal(byName.get('bytes')?.status, 'ok');
      assert.equal(byName.get('piped')?.status, 'broken');
      assert.match(byName.get('piped')!.diagnostics[0].message, /piped\/SKILL\.md is a named pipe \(FIFO\), not a regular file, so it is not read\. Replace it with a regular file\./);
      assert.equal(byName.get('huge')?.status, 'broken');
      assert.match(byName.get('huge')!.diagnostics[0].message, /huge\/SKILL\.md is 64 MiB; at most 16 MiB is read\./);
    });
  }
});
