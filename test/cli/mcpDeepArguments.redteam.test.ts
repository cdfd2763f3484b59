// Red team (issue 22, third pass): a tool call whose arguments are nested 200,000 deep (400 KB of brackets, well
// under --max-body-kb over HTTP, one line on stdio). JSON.parse takes it; the tool's schema refuses it; but the audit
// log's redaction walked it recursively and overflowed the stack, so before the fix the call failed inside the
// server (-32603 "tools/call failed inside the server") and left no line in the audit log: a caller could make its
// refused calls vanish from the log. Now the redaction stops at 32 levels, the call gets its invalid_input answer,
// and the log has its line.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { MODERN_META, rawStdio, serverArgs, waitFor, writeFixtureSkills } from './mcpSupport';

const DEPTH = 200_000;

describe('agent-skills mcp: arguments nested deeper than any tool takes (red team)', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  before(async function () {
    this.timeout(BUILD_TIMEOUT_MS);
    await ensureBuilt();
    tmp = makeTempDir('mcp-deep-');
    writeFixtureSkills(path.join(tmp.dir, 'skills'));
  });
  after(() => tmp?.cleanup());

  it('are refused as invalid input, and the call is in the audit log', async () => {
    const state = path.join(tmp.dir, 'state');
    const server = rawStdio(serverArgs(path.join(tmp.dir, 'skills'), state));
    try {
      const deep = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
      // Written by hand: the test's own JSON.stringify would overflow on such an object.
      server.child.stdin!.write(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"load_skills","arguments":{"names":["alpha"],"extra":${deep}},"_meta":${JSON.stringify(MODERN_META)}}}\n`);
      const answer = await server.answer(7, 30_000);
      assert.equal(answer.error, undefined, `the call failed inside the server: ${JSON.stringify(answer.error)}`);
      const text = (answer.result?.content as { text: string }[] | undefined)?.[0]?.text ?? '';
      assert.match(text, /Error \(invalid_input\): Invalid input for load_skills: .*Unrecognized key: "extra"/);
      const audit = path.join(state, 'audit.jsonl');
      const line = await waitFor('the call in the audit log', () => {
        const lines = fs.existsSync(audit) ? fs.readFileSync(audit, 'utf8').split('\n').filter(Boolean) : [];
        return lines.find((l) => l.includes('"error:invalid_input"'));
      });
      assert.ok(line.length < 10_000, `the logged arguments are cut at their depth limit: ${line.length} bytes`);
      assert.match(line, /<nested too deep>/);
    } finally {
      await server.stop();
    }
  });
});
