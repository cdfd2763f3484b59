// scripts/unprivileged.mjs, which npm test uses (as root) to run the script and state suites again as an
// ordinary account: the account is really unprivileged, sees only the environment it is given, and a
// checkout it cannot read is reported (the pass then fails instead of skipping).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

interface Account {
  name: string;
  uid: number;
  gid: number;
  home: string;
}
interface Unprivileged {
  ensureTestAccount(): Account;
  unreadableFor(account: Account, paths: string[]): string | undefined;
  openForOthers(paths: string[]): boolean;
  runAs(account: Account, program: string, args: string[], o: { cwd: string; env: Record<string, string> }): { status: number | null };
}

describe('the unprivileged pass of npm test (scripts/unprivileged.mjs)', function () {
  this.timeout(60_000);
  let u: Unprivileged;
  let account: Account;
  let tmp: string;

  before(async function () {
    if (process.getuid?.() !== 0) {
      console.log('      skipped: not root, so npm test makes no unprivileged pass (it already runs as an ordinary user)');
      this.skip();
    }
    u = (await import(path.join(__dirname, '..', '..', 'scripts', 'unprivileged.mjs'))) as Unprivileged;
    account = u.ensureTestAccount();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'unprivileged-test-'));
    fs.chmodSync(tmp, 0o755);
  });
  after(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('runs a command as the account, not as root, with only the environment given', () => {
    const out = path.join(tmp, 'out');
    fs.mkdirSync(out);
    fs.chownSync(out, account.uid, account.gid);
    process.env.SKILLS_SECRET_OF_ROOT = 'must-not-pass';
    try {
      const script = `require('fs').writeFileSync(${JSON.stringify(path.join(out, 'who.json'))}, JSON.stringify({ uid: process.getuid(), env: process.env }))`;
      const r = u.runAs(account, process.execPath, ['-e', script], { cwd: tmp, env: { GIVEN: 'yes' } });
      assert.equal(r.status, 0);
    } finally {
      delete process.env.SKILLS_SECRET_OF_ROOT;
    }
    const who = JSON.parse(fs.readFileSync(path.join(out, 'who.json'), 'utf8')) as { uid: number; env: Record<string, string> };
    assert.equal(who.uid, account.uid);
    assert.notEqual(who.uid, 0);
    assert.equal(who.env.GIVEN, 'yes');
    assert.equal(who.env.SKILLS_SECRET_OF_ROOT, undefined, "root's environment leaked into the unprivileged run");
    assert.equal(who.env.USER, account.name);
  });

  it('names a folder the account cannot read, and says what to do', () => {
    const hidden = path.join(tmp, 'private');
    fs.mkdirSync(hidden, { mode: 0o700 });
    fs.chmodSync(hidden, 0o700);
    const problem = u.unreadableFor(account, [tmp, hidden]);
    assert.ok(problem, 'a 0700 folder of root was reported readable');
    assert.match(problem, new RegExp(`cannot read ${hidden.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: make the checkout`));
    assert.equal(u.unreadableFor(account, [tmp]), undefined);
  });

  it('opens a private folder of root for the account when asked, after which it is readable', () => {
    const hidden = path.join(tmp, 'closed', 'inner');
    fs.mkdirSync(hidden, { recursive: true });
    fs.chmodSync(path.join(tmp, 'closed'), 0o700);
    fs.writeFileSync(path.join(hidden, 'f'), 'x', { mode: 0o600 });
    assert.ok(u.unreadableFor(account, [path.join(hidden, 'f')]), 'the file behind a 0700 folder was reported readable');
    assert.equal(u.openForOthers([hidden]), true);
    assert.equal(u.unreadableFor(account, [hidden, path.join(hidden, 'f')]), undefined);
  });
});
