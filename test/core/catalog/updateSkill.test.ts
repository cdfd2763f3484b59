import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invokeRunSkill, invokeUpdateSkill, previewUpdate, type InspectResult } from '../../../src/core/catalog';
import { failed, makeWorld, ok, openCatalog, writeSkill } from './catalogTestUtil';

const BODY = ['# Report', '', 'Intro line.', '', '## Steps', '', '1. Collect data.', '2. Summarise it.', '3. Send the report.', '', '## Notes', '', 'Keep it short.', ''].join('\n');

async function setup() {
  const w = makeWorld();
  const dir = writeSkill(w.workspace, 'report', { body: BODY });
  const catalog = await openCatalog(w);
  return { w, dir, catalog, file: path.join(dir, 'SKILL.md') };
}

async function inspect(catalog: Awaited<ReturnType<typeof setup>>['catalog'], skill: string, extra: Record<string, unknown> = {}): Promise<InspectResult> {
  const r = ok(await invokeRunSkill(catalog, { action: 'inspect', skill, ...extra }));
  return r as unknown as InspectResult;
}

describe('catalog: updateSkill', () => {
  it('patches with a unified diff, returns the line-numbered diff, new ref and a revision', async () => {
    const { catalog, file } = await setup();
    const before = await inspect(catalog, 'report');
    const diff = ['--- a/SKILL.md', '+++ b/SKILL.md', '@@ -11,3 +11,4 @@', ' 2. Summarise it.', ' 3. Send the report.', '+4. Archive it.', ' '].join('\n');
    const r = ok(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'report', diff, expectedVersionRef: before.versionRef }));
    assert.equal(r.action, 'patch');
    assert.ok('written' in r && r.written);
    assert.match(fs.readFileSync(file, 'utf8'), /3\. Send the report\.\n4\. Archive it\.\n/);
    assert.ok('diff' in r && /\|\s\+4\. Archive it\./.test(r.diff), r.diff);
    assert.ok('versionRef' in r && r.versionRef !== before.versionRef);
    const after = await inspect(catalog, 'report', { history: true });
    assert.equal(after.versionRef, 'versionRef' in r ? r.versionRef : '');
    assert.deepEqual(after.history!.map((h) => h.reason), ['seed: source content before the first overlay edit', 'patch']);
  });

  it('applies a shifted patch with fuzz and reports the offset', async () => {
    const { catalog, file } = await setup();
    // header claims line 3, the context really sits at lines 11-12; one context line differs
    const diff = ['@@ -3,3 +3,3 @@', ' 2. Summarise it.', '-3. Send the report.', '+3. Email the report.', ' ', ''].join('\n');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8'));
    const r = ok(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'workspace:report', diff }));
    assert.ok('hunks' in r && r.hunks);
    assert.equal(r.hunks![0].offset, 10);
    assert.equal(r.hunks![0].appliedLine, 13);
    assert.match(r.warnings.join('\n'), /offset \+10/);
    assert.match(fs.readFileSync(file, 'utf8'), /3\. Email the report\./);
  });

  it('applies structured line edits; dry run writes nothing', async () => {
    const { catalog, file } = await setup();
    const original = fs.readFileSync(file, 'utf8');
    const dry = ok(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'report', edits: [{ startLine: 18, newText: 'Keep it very short.' }], dryRun: true }));
    assert.ok('diff' in dry && dry.diff.includes('+Keep it very short.'));
    assert.equal(fs.readFileSync(file, 'utf8'), original);
    const preview = ok(await previewUpdate(catalog, { action: 'patch', skill: 'report', edits: [{ startLine: 18, newText: 'Keep it very short.' }] }));
    assert.equal(preview.diff, 'diff' in dry ? dry.diff : '');
    ok(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'report', edits: [{ startLine: 18, newText: 'Keep it very short.' }] }));
    assert.match(fs.readFileSync(file, 'utf8'), /Keep it very short\.\n$/);
  });

  it('fails on a stale ref with the current ref and the diff between', async () => {
    const { catalog } = await setup();
    const v1 = await inspect(catalog, 'report');
    ok(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'report', edits: [{ startLine: 8, newText: 'Intro line, edited.' }] }));
    const r = failed(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'report', edits: [{ startLine: 17, newText: 'x' }], expectedVersionRef: v1.versionRef }));
    assert.equal(r.code, 'stale_ref');
    const now = await inspect(catalog, 'report');
    assert.equal(r.details!.currentRef, now.versionRef);
    assert.match(String(r.details!.diffSinceExpected), /-Intro line\.\n\+Intro line, edited\./);
  });

  it('notices an edit on disk between inspect and patch: stale with the ref, recorded in history without one', async () => {
    const { catalog, file } = await setup();
    const seen = await inspect(catalog, 'report');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Intro line.', 'Intro changed by hand.'));
    const stale = failed(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'report', content: 'x', expectedVersionRef: seen.versionRef }));
    assert.equal(stale.code, 'stale_ref');
    assert.match(String(stale.details!.diffSinceExpected), /\+Intro changed by hand\./);
    // first recorded write, then another hand edit, then a write without a ref: the hand edit becomes a revision
    ok(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'report', edits: [{ startLine: 18, newText: 'Short.' }] }));
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Short.', 'Short!'));
    const r = ok(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'report', edits: [{ startLine: 8, newText: 'Intro.' }] }));
    assert.match((r as { warnings: string[] }).warnings.join('\n'), /changed on disk since revision 2/);
    const h = (await inspect(catalog, 'report', { history: true })).history!;
    assert.deepEqual(h.map((x) => x.reason), ['seed: source content before the first overlay edit', 'patch', 'edit on disk noticed (not made through updateSkill)', 'patch']);
    assert.match(fs.readFileSync(file, 'utf8'), /Short!/);
  });

  it('refuses a patch that would break validation (file untouched); force writes it with a warning', async () => {
    const { catalog, file } = await setup();
    const original = fs.readFileSync(file, 'utf8');
    const breaking = { action: 'patch', skill: 'report', edits: [{ op: 'delete', startLine: 3 }] };
    const e = failed(await invokeUpdateSkill(catalog, breaking));
    assert.equal(e.code, 'invalid_result');
    assert.match(e.message, /nothing was written/);
    assert.match(e.message, /description-missing/);
    assert.equal(fs.readFileSync(file, 'utf8'), original);
    const forced = ok(await invokeUpdateSkill(catalog, { ...breaking, force: true }));
    assert.match((forced as { warnings: string[] }).warnings.join('\n'), /invalid \(force\)/);
    assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /description:/);
  });

  it('refuses a hunk that does not fit and changes nothing', async () => {
    const { catalog, file } = await setup();
    const original = fs.readFileSync(file, 'utf8');
    const e = failed(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'report', diff: '@@ -1,2 +1,2 @@\n-no such line\n+other\n nor this\n' }));
    assert.equal(e.code, 'patch_hunk_failed');
    assert.equal(fs.readFileSync(file, 'utf8'), original);
  });

  it('patches any text file of the skill, not only SKILL.md', async () => {
    const w = makeWorld();
    writeSkill(w.workspace, 'tools', { body: '# Tools\n\nSee [ref](reference.md).\n', files: { 'reference.md': 'alpha\nbeta\ngamma\n' } });
    const catalog = await openCatalog(w);
    const ins = await inspect(catalog, 'tools', { file: 'reference.md' });
    ok(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'tools', file: 'reference.md', diff: '@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n', expectedVersionRef: ins.versionRef }));
    assert.equal(fs.readFileSync(path.join(w.workspace, 'tools', 'reference.md'), 'utf8'), 'alpha\nBETA\ngamma\n');
  });

  it('metadata keeps comments, order and quoting and leaves the body bytes untouched', async () => {
    const w = makeWorld();
    const fm = ['---', '# owned by the docs team', 'name: styled   # keep me', "description: 'Formats things. Use when formatting.'", 'metadata:', '  version: "1.0"  # bump on change', '  tags: [a, b]', 'license: MIT', '---', ''].join('\n');
    const body = '\n# Styled\n\nBody with  odd   spacing\r\nand CRLF in the middle.\n';
    writeSkill(w.workspace, 'styled', { text: fm + body });
    const catalog = await openCatalog(w);
    const r = ok(await invokeUpdateSkill(catalog, { action: 'metadata', skill: 'styled', fields: { description: 'Formats text. Use when formatting.', 'metadata.version': '1.1' } }));
    assert.ok('written' in r && r.written);
    const text = fs.readFileSync(path.join(w.workspace, 'styled', 'SKILL.md'), 'utf8');
    assert.equal(
      text,
      ['---', '# owned by the docs team', 'name: styled   # keep me', "description: 'Formats text. Use when formatting.'", 'metadata:', '  version: "1.1"  # bump on change', '  tags: [a, b]', 'license: MIT', '---', ''].join('\n') + body,
    );
    // adding and removing fields goes through the Document API: comments and order stay
    ok(await invokeUpdateSkill(catalog, { action: 'metadata', skill: 'styled', fields: { license: null, compatibility: 'node 20' } }));
    const t2 = fs.readFileSync(path.join(w.workspace, 'styled', 'SKILL.md'), 'utf8');
    assert.ok(t2.endsWith(body));
    assert.match(t2, /^---\n# owned by the docs team\nname: styled # keep me\ndescription: 'Formats text\. Use when formatting\.'\nmetadata:\n  version: "1\.1" # bump on change\n/);
    assert.doesNotMatch(t2, /license/);
    assert.match(t2, /compatibility: node 20\n---\n/);
  });

  it('creates a valid skill folder atomically and refuses an invalid one', async () => {
    const { catalog, w } = await setup();
    const r = ok(await invokeUpdateSkill(catalog, { action: 'create', scope: 'user', name: 'notes', description: 'Takes notes. Use when asked to note things.', body: '# Notes\n\nWrite them down.\n', files: [{ path: 'scripts/hello.sh', content: 'echo hi\n' }] }));
    assert.ok('dir' in r && r.written);
    assert.equal(r.skillId, 'user:notes');
    assert.match(fs.readFileSync(path.join(w.user, 'notes', 'SKILL.md'), 'utf8'), /^---\nname: notes\ndescription: Takes notes\. Use when asked to note things\.\n---\n\n# Notes\n/);
    assert.equal(fs.statSync(path.join(w.user, 'notes', 'scripts', 'hello.sh')).mode & 0o111, 0o111);
    const listed = ok(await invokeRunSkill(catalog, { action: 'list', source: 'user' }));
    assert.ok('skills' in listed && listed.skills.some((s) => s.id === 'user:notes'));
    const bad = failed(await invokeUpdateSkill(catalog, { action: 'create', scope: 'workspace', name: 'Bad Name', description: 'x', body: 'y' }));
    assert.equal(bad.code, 'invalid_input');
    const exists = failed(await invokeUpdateSkill(catalog, { action: 'create', scope: 'user', name: 'notes', description: 'Takes notes. Use when asked.', body: 'b' }));
    assert.equal(exists.code, 'target_exists');
    const missing = failed(await invokeUpdateSkill(catalog, { action: 'create', scope: 'user', name: 'x' }));
    assert.equal(missing.code, 'invalid_input');
    assert.match(missing.message, /description/);
  });

  it('copies to another scope and name, recording the origin in the revision store', async () => {
    const { catalog, w } = await setup();
    const src = await inspect(catalog, 'report');
    const r = ok(await invokeUpdateSkill(catalog, { action: 'copy', skill: 'report', toScope: 'user', toName: 'report-copy' }));
    assert.ok('origin' in r);
    assert.deepEqual(r.origin, { skillId: 'workspace:report', versionRef: src.versionRef });
    const text = fs.readFileSync(path.join(w.user, 'report-copy', 'SKILL.md'), 'utf8');
    assert.match(text, /^---\nname: report-copy\n/);
    const h = (await inspect(catalog, 'user:report-copy', { history: true })).history!;
    assert.equal(h[0].reason, `copy of workspace:report at ${src.versionRef}`);
  });

  it('archives reversibly and restores; restores an earlier revision', async () => {
    const { catalog, dir, file } = await setup();
    const v1 = fs.readFileSync(file, 'utf8');
    ok(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'report', edits: [{ startLine: 8, newText: 'Changed intro.' }] }));
    const a = ok(await invokeUpdateSkill(catalog, { action: 'archive', skill: 'report', reason: 'cleanup' }));
    assert.ok('how' in a && a.how === 'moved');
    assert.equal(fs.existsSync(dir), false);
    assert.equal(failed(await invokeRunSkill(catalog, { action: 'inspect', skill: 'report' })).code, 'not_found');
    const back = ok(await invokeUpdateSkill(catalog, { action: 'restore', skill: 'report' }));
    assert.ok('how' in back && back.change === 'restored');
    assert.match(fs.readFileSync(file, 'utf8'), /Changed intro\./);
    // revision 1 is the seed (the original content)
    const r = ok(await invokeUpdateSkill(catalog, { action: 'restore', skill: 'report', revision: 1 }));
    assert.ok('written' in r && r.written);
    assert.equal(fs.readFileSync(file, 'utf8'), v1);
    const none = failed(await invokeUpdateSkill(catalog, { action: 'restore', skill: 'report', revision: 99 }));
    assert.equal(none.code, 'not_found');
    assert.equal(failed(await invokeUpdateSkill(catalog, { action: 'restore', skill: 'nothing-archived' })).code, 'not_archived');
  });
});
