// The macOS profile is generated and checked here; it can only run on macOS (sandbox-exec).
import * as assert from 'node:assert/strict';
import { sbplString, seatbeltProfile } from '../../../src/core/exec/sandbox/seatbelt';

describe('core/exec macOS sandbox profile (sandbox-exec)', () => {
  const plan = {
    workspace: '/Users/u/state/runs/r1',
    skillsDir: '/Users/u/state/runs/r1/skills',
    readOnly: ['/Users/u/state/skills/pdf-1/abc', '/opt/homebrew'],
    writable: ['/Users/u/state/deps/pdf-1/home', '/Users/u/state/deps/pdf-1/.venv'],
  };
  const profile = seatbeltProfile(plan);
  const lines = profile.trim().split('\n');

  it('denies by default and has no network rule', () => {
    assert.equal(lines[0], '(version 1)');
    assert.equal(lines[1], '(deny default)');
    assert.doesNotMatch(profile, /network/);
  });

  it('lets the run write only its workspace, HOME and dependency folders, and keeps the staged skill read-only (last rule wins)', () => {
    const writeRules = lines.filter((l) => l.includes('file-write*'));
    const allowRw = writeRules.filter((l) => l.startsWith('(allow file-read* file-write*'));
    assert.deepEqual(allowRw.flatMap((l) => [...l.matchAll(/\(subpath "([^"]+)"\)/g)].map((m) => m[1])), [plan.workspace, ...plan.writable]);
    assert.equal(lines.at(-1), `(deny file-write* (subpath "${plan.skillsDir}"))`);
    // Nothing of the home folder but the run's own parts.
    assert.doesNotMatch(profile, /\(subpath "\/Users\/u"\)/);
  });

  it('reads the snapshot and interpreter prefixes, not written', () => {
    assert.ok(lines.includes('(allow file-read* (subpath "/Users/u/state/skills/pdf-1/abc") (subpath "/opt/homebrew"))'), profile);
  });

  it('escapes quotes and backslashes in paths, and refuses line breaks that would end a rule', () => {
    assert.equal(sbplString('/a "b"\\c'), '"/a \\"b\\"\\\\c"');
    const odd = seatbeltProfile({ ...plan, workspace: '/tmp/x") (allow network*) ("' });
    assert.doesNotMatch(odd, /^\(allow network\*\)/m);
    assert.ok(odd.includes('(subpath "/tmp/x\\") (allow network*) (\\"")'));
    assert.throws(() => seatbeltProfile({ ...plan, workspace: '/tmp/x\n(allow network*)' }), /line break/);
  });
});
