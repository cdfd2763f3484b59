// The runner reads a skill's source through its `files` host: a skill that lives only in memory runs, an edit
// in the host reaches the next run, and what the host holds is copied to a real read-only snapshot on the disk
// (a script's process needs real files). Links exist only on the disk, so they are tested with the Node host.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createScriptRunner, ScriptRunError, type RunRequest } from '../../../src/core/exec';
import { MAX_SNAPSHOT_FILE_BYTES } from '../../../src/core/exec/sourceTree';
import { createMemoryHost, type MemoryHost } from '../../../src/core/host/memoryHost';
import { textOfRead } from '../../../src/core/host/skillsHost';
import { makeTempDir } from '../../support/tempDir';
import { cleanup, setup, type Sandbox } from './helpers';

const textOf = (host: MemoryHost, file: string): string | undefined => textOfRead(host.readFile(file));
const code = (c: string) => (err: unknown) => err instanceof ScriptRunError && err.code === c;

describe('core/exec runner reading skills through a host', () => {
  describe('a skill that exists only in an in-memory host', () => {
    const ROOT = '/mem/skills/hello';
    let temp: ReturnType<typeof makeTempDir>;
    let mem: MemoryHost;
    beforeEach(() => {
      temp = makeTempDir('exec-host-');
      mem = createMemoryHost({
        [`${ROOT}/SKILL.md`]: '---\nname: hello\ndescription: Says hello.\n---\n',
        [`${ROOT}/scripts/hello.sh`]: '#!/bin/sh\necho hello\n',
        [`${ROOT}/data/greeting.txt`]: 'hi there\n',
      });
    });
    afterEach(() => temp.cleanup());

    const runner = () => createScriptRunner({ files: mem, resolveSkillRoot: () => ROOT, stateDir: path.join(temp.dir, 'state'), sandbox: 'off' });
    const hello: RunRequest = { skillName: 'hello', skillRoot: ROOT, script: 'scripts/hello.sh' };

    it('runs its script from a real copy on the disk, though nothing of it is on the disk', async () => {
      assert.equal(fs.existsSync('/mem'), false, 'the test needs /mem not to exist on the disk');
      const r = await runner().run(hello);
      assert.equal(r.exit_code, 0, r.stderr);
      assert.equal(r.stdout, 'hello\n');
      const listed = await runner().run({ skillName: 'hello', skillRoot: ROOT, command: 'cat data/greeting.txt; stat -c %a scripts/hello.sh' });
      assert.equal(listed.stdout, 'hi there\n555\n');
    });

    it('gives the next run the file as the host has it now, and does not copy an unchanged skill again', async () => {
      const r = runner();
      assert.equal((await r.run(hello)).stdout, 'hello\n');
      const reads = mem.calls.readFile;
      assert.equal((await r.run(hello)).stdout, 'hello\n');
      assert.equal(mem.calls.readFile, reads, 'an unchanged skill was read again');
      mem.write(`${ROOT}/scripts/hello.sh`, '#!/bin/sh\necho hello again\n');
      assert.equal((await r.run(hello)).stdout, 'hello again\n');
      // Same size, new content: the host's mtime moves, so the fingerprint does.
      mem.write(`${ROOT}/scripts/hello.sh`, '#!/bin/sh\necho HELLO again\n');
      assert.equal((await r.run(hello)).stdout, 'HELLO again\n');
      // A file added, then removed.
      mem.write(`${ROOT}/scripts/extra.sh`, 'echo extra\n');
      assert.equal((await r.run({ ...hello, script: 'scripts/extra.sh' })).stdout, 'extra\n');
      mem.remove(`${ROOT}/scripts/extra.sh`);
      await assert.rejects(r.run({ ...hello, script: 'scripts/extra.sh' }), code('not_found'));
      assert.equal((await r.run({ ...hello, script: undefined, command: 'ls scripts' })).stdout, 'hello.sh\n');
    });

    it('lays an overlay held in the host over the copy', async () => {
      const overlay = '/mem/overlays/hello';
      mem.write(`${overlay}/scripts/hello.sh`, '#!/bin/sh\necho edited\n');
      mem.write(`${overlay}/scripts/new.sh`, 'echo new\n');
      const r = runner();
      assert.equal((await r.run({ ...hello, overlayRoot: overlay })).stdout, 'edited\n');
      assert.equal((await r.run({ ...hello, overlayRoot: overlay, script: 'scripts/new.sh' })).stdout, 'new\n');
      mem.write(`${overlay}/scripts/hello.sh`, '#!/bin/sh\necho edited twice\n');
      assert.equal((await r.run({ ...hello, overlayRoot: overlay })).stdout, 'edited twice\n');
      // A missing overlay is nothing edited yet.
      assert.equal((await r.run({ ...hello, overlayRoot: '/mem/overlays/none' })).stdout, 'hello\n');
    });

    it('refuses what the host does not hold, as it would on the disk', async () => {
      const r = runner();
      await assert.rejects(r.run({ ...hello, skillRoot: '/mem/skills/missing' }), code('not_found'));
      await assert.rejects(r.run({ ...hello, script: 'scripts/missing.sh' }), code('not_found'));
      await assert.rejects(r.run({ ...hello, script: 'scripts' }), code('invalid_request'));
      await assert.rejects(r.run({ ...hello, script: '../other/x.sh' }), code('path_outside_skill'));
      // A skill on the disk is not in this host.
      const onDisk = path.join(temp.dir, 'disk-skill');
      fs.mkdirSync(path.join(onDisk, 'scripts'), { recursive: true });
      fs.writeFileSync(path.join(onDisk, 'scripts', 'hello.sh'), 'echo disk\n');
      await assert.rejects(r.run({ ...hello, skillRoot: onDisk }), code('not_found'));
    });
    it('stages a skill:// input from the host by copying it, and refuses to link what is not on the disk', async () => {
      mem.write(`${ROOT}/data/nested/more.txt`, 'more\n');
      const r = runner();
      const copied = await r.run({ ...hello, script: undefined, command: 'cat inputs/data/greeting.txt inputs/data/nested/more.txt; echo changed > inputs/data/greeting.txt && echo writable', inputs: [{ from: 'skill://hello/data', mode: 'copy' }] });
      assert.equal(copied.exit_code, 0, copied.stderr);
      assert.equal(copied.stdout, 'hi there\nmore\nwritable\n');
      assert.equal(textOf(mem, `${ROOT}/data/greeting.txt`), 'hi there\n', 'the copy is the script\'s own; the skill is unchanged');
      await assert.rejects(
        r.run({ ...hello, inputs: [{ from: 'skill://hello/data/greeting.txt', mode: 'link' }] }),
        (e: unknown) => e instanceof ScriptRunError && e.code === 'input_refused' && /not on the disk.*mode "copy"/.test(e.message),
      );
      await assert.rejects(r.run({ ...hello, inputs: [{ from: 'skill://hello/../../etc/passwd', mode: 'copy' }] }), code('input_refused'));
      await assert.rejects(r.run({ ...hello, inputs: [{ from: 'skill://hello/data/missing.txt', mode: 'copy' }] }), (e: unknown) => e instanceof ScriptRunError && /data\/missing\.txt" does not exist/.test(e.message));
    });
  });

  describe('on the disk (the default host)', () => {
    let sb: Sandbox;
    beforeEach(() => {
      sb = setup();
    });
    afterEach(() => cleanup(sb));

    it('keeps a link that resolves inside the skill, and makes a new copy when it is retargeted', async () => {
      fs.writeFileSync(path.join(sb.skillRoot, 'a.txt'), 'A\n');
      fs.writeFileSync(path.join(sb.skillRoot, 'b.txt'), 'B\n');
      fs.symlinkSync('a.txt', path.join(sb.skillRoot, 'pick.txt'));
      const runner = sb.runner();
      const pick = { skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'cat pick.txt; readlink "$(readlink pick.txt)"' };
      assert.equal((await runner.run(pick)).stdout, 'A\na.txt\n');
      // Retargeted at the skill's root, whose own mtime the fingerprint does not see: only the link's target tells.
      const rootTimes = fs.statSync(sb.skillRoot);
      fs.unlinkSync(path.join(sb.skillRoot, 'pick.txt'));
      fs.symlinkSync('b.txt', path.join(sb.skillRoot, 'pick.txt'));
      fs.utimesSync(sb.skillRoot, rootTimes.atime, rootTimes.mtime);
      assert.equal((await runner.run(pick)).stdout, 'B\nb.txt\n');
    });

    it('copies a skill:// folder input keeping modes, following links to files inside the skill, skipping links out', async () => {
      const outside = path.join(sb.tmp, 'outside.txt');
      fs.writeFileSync(outside, 'TOP-SECRET\n');
      const data = path.join(sb.skillRoot, 'kit');
      fs.mkdirSync(data);
      fs.writeFileSync(path.join(data, 'tool.sh'), '#!/bin/sh\necho tool\n', { mode: 0o755 });
      fs.writeFileSync(path.join(data, 'plain.txt'), 'plain\n', { mode: 0o644 });
      fs.symlinkSync('plain.txt', path.join(data, 'alias.txt'));
      fs.symlinkSync(outside, path.join(data, 'leak.txt'));
      const r = await sb.runner({ resolveSkillRoot: (n) => (n === 'exec-demo' ? sb.skillRoot : undefined) }).run({
        skillName: 'exec-demo',
        skillRoot: sb.skillRoot,
        command: 'inputs/kit/tool.sh; cat inputs/kit/alias.txt; stat -c %a inputs/kit/plain.txt; test -e inputs/kit/leak.txt && echo leaked || echo no-leak',
        inputs: [{ from: 'skill://exec-demo/kit', mode: 'copy' }],
      });
      assert.equal(r.exit_code, 0, r.stderr);
      assert.equal(r.stdout, 'tool\nplain\n644\nno-leak\n');
      assert.ok(r.warnings.some((w) => /leak\.txt.*outside the skill/.test(w)), JSON.stringify(r.warnings));
      assert.doesNotMatch(JSON.stringify(r), /TOP-SECRET/);
    });

    it('skips a file over the per-file limit with a warning naming it and the limit, and runs the rest', async () => {
      // Sparse: no disk used, and the size is refused before a byte is read.
      const big = path.join(sb.skillRoot, 'model.bin');
      fs.closeSync(fs.openSync(big, 'w'));
      fs.truncateSync(big, MAX_SNAPSHOT_FILE_BYTES + 1);
      const r = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'test -e model.bin && echo copied || echo skipped; cat notes.txt' });
      assert.equal(r.stdout, `skipped\n${fs.readFileSync(path.join(sb.skillRoot, 'notes.txt'), 'utf8')}`);
      const warning = r.warnings.find((w) => w.includes('model.bin'));
      assert.ok(warning, `no warning names model.bin: ${JSON.stringify(r.warnings)}`);
      assert.match(warning, /256 MiB/);
    });

    it('makes the copy again when a script changed its modes only (a copy made unreadable would break later runs)', async () => {
      const runner = sb.runner();
      const mode = { skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'stat -c %a "$(readlink -f scripts/hello.sh)"' };
      assert.equal((await runner.run(mode)).stdout, '555\n');
      await runner.idle();
      // An owner may chmod the read-only copy (and root ignores 0555); content and mtime stay as they were.
      const chmod = await runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'chmod 0 "$(readlink -f scripts/hello.sh)" && echo done' });
      assert.equal(chmod.stdout, 'done\n', chmod.stderr);
      await runner.idle();
      assert.equal((await runner.run(mode)).stdout, '555\n');
      assert.equal((await runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/hello.sh', args: ['x'] })).stdout, 'sh x\n');
    });
  });
});
