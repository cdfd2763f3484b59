import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ArtifactStore } from '../../../src/core/exec/artifactStore';

describe('core/exec artifact store', () => {
  let base: string;
  let source: string;
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'artifacts-'));
    source = path.join(base, 'report.txt');
    fs.writeFileSync(source, 'hello\n');
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it("keeps the names '.' and '..' inside the store instead of its own folder or its parent", () => {
    const dir = path.join(base, 'state', 'artifacts');
    const store = new ArtifactStore(dir);
    for (const name of ['..', '.']) {
      const info = store.save(name, source, 'text/plain');
      assert.equal(path.relative(dir, info.path).startsWith('..'), false, info.path);
      assert.equal(path.dirname(path.dirname(path.dirname(info.path))), dir, info.path);
      assert.equal(store.stat({ name })?.size_bytes, 6);
    }
    assert.deepEqual(fs.readdirSync(path.join(base, 'state')), ['artifacts']);
  });

  it('writes meta.json by rename, leaving no temp file next to it', () => {
    const store = new ArtifactStore(path.join(base, 'artifacts'));
    const info = store.save('out/report.txt', source, 'text/plain');
    assert.deepEqual(fs.readdirSync(path.dirname(info.path)).sort(), ['data', 'meta.json']);
    assert.deepEqual(store.stat({ name: 'out/report.txt', version: 1 })?.mime_type, 'text/plain');
  });
});
