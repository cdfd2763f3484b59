import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../..');
const CLI = path.join(REPO, 'dist/cli.js');
/**
 * A deadline for each command, not a sleep: before the fix `list` over a FIFO named SKILL.md never returned,
 * and the 1.5 GB sparse SKILL.md took 33 s and 1.6 GB before failing the whole list. Generous for a loaded
 * 2-core machine; a hang is killed here and fails the test.
 */
const DEADLINE_MS = 60_000;

function run(args: string[], cwd: string): { code: number | null; stdout: string; stderr: string; signal: NodeJS.Signals | null } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, HOME: cwd }, encoding: 'utf8', timeout: DEADLINE_MS });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}

function writeSkill(root: string, name: string, extra: Record<string, string> = {}): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: Does ${name}. Use when asked to.\n---\n# ${name}\n`);
  for (const [rel, text] of Object.entries(extra)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe('files that are not what they claim: FIFOs and huge sparse files (issue 11, point 7)', function () {
  this.timeout(4 * DEADLINE_MS);
  let base: string;
  let root: string;

  before(async function () {
    this.timeout(BUILD_TIMEOUT_MS);
    if (process.platform === 'win32') {
      console.log('      skipped: FIFOs made with mkfifo do not exist on Windows');
      this.skip();
    }
    await ensureBuilt();
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-hostile-'));
    root = path.join(base, 'skills');
    writeSkill(root, 'good');
    fs.mkdirSync(path.join(root, 'piped'));
    execFileSync('mkfifo', [path.join(root, 'piped', 'SKILL.md')]);
    fs.mkdirSync(path.join(root, 'sparse'));
    // 1.5 GB that take no disk space: reading it whole is what used to fail.
    const fd = fs.openSync(path.join(root, 'sparse', 'SKILL.md'), 'w');
    fs.ftruncateSync(fd, 1536 * 1024 * 1024);
    fs.closeSync(fd);
    const withPipe = writeSkill(root, 'notes');
    execFileSync('mkfifo', [path.join(withPipe, 'pipe.md')]);
  });
  after(() => {
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  it('list: keeps the good skills listed and reports the FIFO and the huge file each on its own skill', () => {
    const r = run(['list', '--no-defaults', `--root=${root}`], base);
    assert.equal(r.signal, null, `list did not return within ${DEADLINE_MS} ms`);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^ok\s+project\s+workspace:good\s/m);
    assert.match(r.stdout, /^ok\s+project\s+workspace:notes\s/m);
    assert.match(r.stdout, /^broken\s+project\s+workspace:piped\s[\s\S]*?piped\/SKILL\.md is a named pipe \(FIFO\), not a regular file/m);
    assert.match(r.stdout, /^broken\s+project\s+workspace:sparse\s[\s\S]*?sparse\/SKILL\.md is 1\.5 GiB; at most 16 MiB is read/m);
    assert.match(r.stdout, /4 skill\(s\) in 1 folder\(s\): 2 ok, 2 broken\./);
  });

  it('validate: a FIFO or huge SKILL.md is reported as unreadable, never read', () => {
    for (const name of ['piped', 'sparse']) {
      const r = run(['validate', path.join(root, name)], base);
      assert.equal(r.signal, null, `validate ${name} did not return within ${DEADLINE_MS} ms`);
      assert.equal(r.code, 1);
      assert.match(r.stdout + r.stderr, /cannot be read: it is not a regular file, is larger than 16 MiB, or is binary/);
    }
  });

  it('inspect --file: a FIFO inside a skill is refused with what it is', () => {
    const r = run(['inspect', 'notes', '--file', 'pipe.md', '--no-defaults', `--root=${root}`, `--state-dir=${path.join(base, 'state')}`], base);
    assert.equal(r.signal, null, `inspect did not return within ${DEADLINE_MS} ms`);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /pipe\.md is a named pipe \(FIFO\), not a regular file/);
  });
});
