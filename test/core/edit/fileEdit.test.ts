import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commitFileEdit, digestOf, prepareFileEdit, RevisionStore, StaleRefError } from '../../../src/core/edit';
import { makeTempDir } from '../../support/tempDir';

describe('edit/fileEdit: prepare (dry run) and commit', () => {
  let dir: string;
  let cleanup: () => void;
  let skill: string;
  let store: RevisionStore;
  const v1 = '---\r\nname: pdf\r\n---\r\nStep one.\r\nStep two.\r\n';
  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
    skill = path.join(dir, 'pdf');
    fs.mkdirSync(skill);
    fs.writeFileSync(path.join(skill, 'SKILL.md'), v1);
    store = new RevisionStore(path.join(dir, 'revisions'));
  });
  afterEach(() => cleanup());

  it('prepares without writing, then commits atomically with a revision', async () => {
    await store.append({ skillId: 'workspace:pdf', file: 'SKILL.md', content: v1, reason: 'initial' });
    const prepared = await prepareFileEdit({
      skillId: 'workspace:pdf',
      skillDir: skill,
      file: 'SKILL.md',
      change: { format: 'unifiedDiff', diff: '@@ -4,2 +4,2 @@\n Step one.\n-Step two.\n+Step two, carefully.\n' },
      expectedRef: digestOf(v1),
    });
    assert.equal(fs.readFileSync(path.join(skill, 'SKILL.md'), 'utf8'), v1, 'dry run writes nothing');
    assert.match(prepared.diff.text, /   5 \| -Step two\.\n   5 \| \+Step two, carefully\./);
    assert.ok(prepared.after.endsWith('Step two, carefully.\r\n'));
    const { ref, record } = await commitFileEdit(prepared, { store, reason: 'clarify step two' });
    assert.equal(ref, digestOf(fs.readFileSync(path.join(skill, 'SKILL.md'))));
    assert.equal(record?.previousRef, digestOf(v1));
    assert.equal((await store.history('workspace:pdf')).length, 2);
  });

  it('refuses a stale ref with the current ref and the diff since the expected version', async () => {
    await store.append({ skillId: 'workspace:pdf', file: 'SKILL.md', content: v1, reason: 'initial' });
    const edited = v1.replace('Step one.', 'Step one (edited by hand).');
    fs.writeFileSync(path.join(skill, 'SKILL.md'), edited);
    await assert.rejects(
      prepareFileEdit({ skillId: 'workspace:pdf', skillDir: skill, file: 'SKILL.md', change: { format: 'replace', content: 'x' }, expectedRef: digestOf(v1), store }),
      (e: unknown) => e instanceof StaleRefError && e.currentRef === digestOf(edited) && /-Step one\.\n\+Step one \(edited by hand\)\./.test(e.diff ?? ''),
    );
  });

  it('notices an edit made on disk between prepare and commit, and writes nothing', async () => {
    const prepared = await prepareFileEdit({ skillId: 'workspace:pdf', skillDir: skill, file: 'SKILL.md', change: { format: 'lineEdits', edits: [{ startLine: 4, newText: 'Step 1.' }] } });
    fs.writeFileSync(path.join(skill, 'SKILL.md'), v1 + 'added meanwhile\r\n');
    await assert.rejects(commitFileEdit(prepared, { store, reason: 'x' }), (e: unknown) => e instanceof StaleRefError && /\+added meanwhile/.test(e.message));
    assert.equal(fs.readFileSync(path.join(skill, 'SKILL.md'), 'utf8'), v1 + 'added meanwhile\r\n');
    assert.equal((await store.history('workspace:pdf')).length, 0);
  });
});
