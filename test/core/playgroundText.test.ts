// The plain-text parts of "Run Script…" (src/extension/playground/argLine.ts and runReport.ts import nothing of
// VS Code, so they are tested here, in plain mocha).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { joinArgs, splitArgs } from '../../src/extension/playground/argLine';
import { runReport } from '../../src/extension/playground/runReport';
import { makeTempDir } from '../support/tempDir';

describe('Run Script argument line', () => {
  it('groups quoted words and keeps shell characters as typed', () => {
    assert.deepEqual(splitArgs(`Ada "two words" 'single $HOME' *.txt a\\ b ""`), ['Ada', 'two words', 'single $HOME', '*.txt', 'a b', '']);
    assert.deepEqual(splitArgs('   '), []);
  });

  it('refuses an unterminated quote and says which', () => {
    assert.throws(() => splitArgs('"open'), /double quote/);
    assert.throws(() => splitArgs("it's"), /single quote/);
  });

  it('joins to a line that splits back to the same arguments', () => {
    for (const args of [['Ada'], ['two words', "it's", '$x', ''], ['a"b', 'back\\slash', 'tab\there']]) assert.deepEqual(splitArgs(joinArgs(args)), args);
  });
});

describe('Run Script report', () => {
  const asked = { skill: 'tool', script: 'scripts/x.sh', args: ['a'], started: new Date(0) };
  const base = {
    run_id: 'r1', exit_code: 2, signal: null, stdout: '', stderr: '', stdout_truncated: false, stderr_truncated: false, timed_out: false,
    cancelled: false, duration_ms: 12.4, sandboxed: false, sandbox_reason: 'bubblewrap (bwrap) is not installed', output_files: [], warnings: [],
  };

  it('keeps output that holds Markdown fences inside its block, so it cannot forge the report', () => {
    const stdout = 'before\n````\n- Exit code: 0\n```\nafter\n';
    const text = runReport(asked, { ok: true, tool: 'run_script', result: { ...base, stdout } }, () => undefined);
    assert.equal(text.match(/^- Exit code: /gm)?.length, 2, 'the forged line is only inside the fenced block');
    const fence = /## stdout\n\n(`+)text\n/.exec(text);
    assert.ok(fence && fence[1].length > 4, text);
    assert.ok(text.includes(`${fence[1]}text\n${stdout}${fence[1]}\n`), text);
    assert.match(text, /^- Sandbox: not sandboxed: bubblewrap \(bwrap\) is not installed$/m);
  });

  it('words a sandboxed run as the backend that ran it does (issue 23: a backend owns its wording), not as bubblewrap always', () => {
    const sandboxed = { ...base, sandboxed: true, sandbox_reason: undefined };
    const mac = runReport({ ...asked, sandbox: { policy: 'auto', sandboxed: true, refused: false, mechanism: 'seatbelt', program: '/usr/bin/sandbox-exec' } }, { ok: true, tool: 'run_script', result: sandboxed }, () => undefined);
    assert.match(mac, /^- Sandbox: sandboxed with seatbelt \(\/usr\/bin\/sandbox-exec\): no network; reads only system folders/m);
    assert.doesNotMatch(mac, /bubblewrap/);
    const linux = runReport({ ...asked, sandbox: { policy: 'auto', sandboxed: true, refused: false, mechanism: 'bubblewrap', program: '/usr/bin/bwrap' } }, { ok: true, tool: 'run_script', result: sandboxed }, () => undefined);
    assert.match(linux, /^- Sandbox: sandboxed with bubblewrap \(\/usr\/bin\/bwrap\): no network; sees only system programs/m);
  });

  it('links output files that still exist and says when a run folder is gone', () => {
    const tmp = makeTempDir('report-');
    try {
      const file = path.join(tmp.dir, 'report.txt');
      fs.writeFileSync(file, 'x');
      const files = [
        { name: 'out/report.txt', ref: 'run://r1/out/report.txt', mime_type: 'text/plain', size_bytes: 1 },
        { name: 'out/old.txt', ref: 'run://r0/out/old.txt', mime_type: 'text/plain', size_bytes: 1 },
      ];
      const text = runReport(asked, { ok: true, tool: 'run_script', result: { ...base, output_files: files } }, (ref) => (ref === files[0].ref ? file : undefined));
      const link = /^- \[out\/report\.txt\]\(([^)]+)\)/m.exec(text);
      assert.ok(link, text);
      assert.equal(fileURLToPath(link[1]), file);
      assert.match(text, /^- out\/old\.txt \(its run folder was removed since\)/m);
    } finally {
      tmp.cleanup();
    }
  });

  it('reports a refusal with its reason and what to do', () => {
    const text = runReport(asked, { ok: false, tool: 'run_script', error: { code: 'run_refused', message: 'Not trusted.', hint: 'Trust it.' } }, () => undefined);
    assert.match(text, /- Result: refused \(run_refused\)\n\n## Why\n\nNot trusted\.\n\n## What to do\n\nTrust it\./);
  });
});
