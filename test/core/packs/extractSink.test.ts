import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { DEFAULT_LIMITS, ExtractSink } from '../../../src/core/packs/extractPolicy';

describe('packs/ExtractSink.file', () => {
  let dest: string;
  beforeEach(() => {
    dest = fs.mkdtempSync(path.join(os.tmpdir(), 'extract-sink-'));
  });
  afterEach(() => fs.rmSync(dest, { recursive: true, force: true }));

  it('refuses an entry whose stream fails while its folder is being made, instead of crashing the process', async () => {
    // An opened zip entry inflates at once: one that lies about its size can fail before the sink listens to it.
    const data = new PassThrough();
    process.nextTick(() => data.emit('error', new Error('too many bytes in the stream')));
    const sink = new ExtractSink(dest, DEFAULT_LIMITS, 'refuse');
    await assert.rejects(sink.file('deep/er/folder/lie.txt', data, 0o644), /too many bytes in the stream/);
    assert.equal(data.destroyed, true);
    assert.ok(!fs.existsSync(path.join(dest, 'deep/er/folder/lie.txt')), 'no file was started');
  });

  it('writes an entry whose stream is healthy', async () => {
    const data = new PassThrough();
    data.end('hello\n');
    await new ExtractSink(dest, DEFAULT_LIMITS, 'refuse').file('a/b.txt', data, 0o644);
    assert.equal(fs.readFileSync(path.join(dest, 'a/b.txt'), 'utf8'), 'hello\n');
  });
});
