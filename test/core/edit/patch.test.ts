import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyLineEdits, applyPatchSpec, applyUnifiedDiff, digestOf, EditError, PatchHunkError, writeFileAtomic } from '../../../src/core/edit';
import { makeTempDir } from '../../support/tempDir';

const lines = (n: number, eol = '\n'): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join(eol) + eol;

const twoHunks = [
  '--- a/SKILL.md',
  '+++ b/SKILL.md',
  '@@ -5,3 +5,3 @@',
  ' line 5',
  '-line 6',
  '+line six',
  ' line 7',
  '@@ -20,3 +20,4 @@',
  ' line 20',
  ' line 21',
  '+inserted after 21',
  ' line 22',
  '',
].join('\n');

describe('edit/patch: unified diffs', () => {
  it('applies hunks exactly where the headers say, with zero offset and fuzz', () => {
    const r = applyUnifiedDiff(lines(30), twoHunks);
    assert.deepEqual(r.hunks.map((h) => [h.appliedLine, h.offset, h.fuzz]), [[5, 0, 0], [20, 0, 0]]);
    const out = r.text.split('\n');
    assert.equal(out[5], 'line six');
    assert.equal(out[21], 'inserted after 21');
    assert.equal(out.length, 32);
    assert.deepEqual(r.warnings, []);
  });

  it('applies context shifted by a few lines and reports the offset per hunk', () => {
    const shifted = 'new a\nnew b\nnew c\n' + lines(30);
    const r = applyUnifiedDiff(shifted, twoHunks);
    assert.deepEqual(r.hunks.map((h) => [h.expectedLine, h.appliedLine, h.offset]), [[5, 8, 3], [20, 23, 3]]);
    assert.equal(r.text.split('\n')[8], 'line six');
    assert.match(r.warnings[0], /offset \+3/);
    // lines removed above: negative offset
    const up = lines(30).split('\n').slice(2).join('\n');
    const r2 = applyUnifiedDiff(up, twoHunks);
    assert.deepEqual(r2.hunks.map((h) => h.offset), [-2, -2]);
  });

  it('tolerates a changed context line with fuzz and reports it', () => {
    const diff = '@@ -10,5 +10,5 @@\n line 10 (model misremembered)\n line 11\n-line 12\n+twelve\n line 13\n line 14\n';
    const r = applyUnifiedDiff(lines(20), diff);
    assert.equal(r.hunks[0].fuzz, 1);
    assert.equal(r.text.split('\n')[11], 'twelve');
    assert.equal(r.text.split('\n')[9], 'line 10', 'context lines keep the file content');
    assert.throws(() => applyUnifiedDiff(lines(20), diff, { fuzzFactor: 0 }), PatchHunkError);
  });

  it('accepts model-style diffs: wrong counts, bare @@, trailing-space differences', () => {
    const r = applyUnifiedDiff(lines(10), '@@ -3,99 +3,1 @@\n line 3\n-line 4\n+four\n');
    assert.equal(r.text.split('\n')[3], 'four');
    const bare = applyUnifiedDiff(lines(10), '@@ @@\n line 7\n-line 8\n+eight\n');
    assert.equal(bare.text.split('\n')[7], 'eight');
    assert.equal(bare.hunks[0].appliedLine, 7);
    const ws = applyUnifiedDiff('a  \nb\n', '@@ -1,2 +1,2 @@\n a\n-b\n+c\n');
    assert.equal(ws.text, 'a  \nc\n');
  });

  it('fails with a message naming the hunk, expected vs actual lines and what to do, leaving the file untouched', async () => {
    const { dir, cleanup } = makeTempDir();
    try {
      const file = path.join(dir, 'SKILL.md');
      fs.writeFileSync(file, lines(30));
      const before = digestOf(fs.readFileSync(file));
      const bad = twoHunks.replace('-line 6\n', '-line six hundred\n').replace(' line 5\n', ' line five\n');
      let error: unknown;
      try {
        const r = applyUnifiedDiff(fs.readFileSync(file, 'utf8'), bad, { fileName: 'pdf/SKILL.md' });
        await writeFileAtomic(file, r.text);
      } catch (e) {
        error = e;
      }
      assert.ok(error instanceof PatchHunkError);
      assert.equal(error.hunkIndex, 1);
      assert.match(error.message, /Hunk 1 \(@@ -5,3 \+5,3 @@\) of the patch for pdf\/SKILL\.md/);
      assert.match(error.message, /Expected \(from the patch\):\n5 \| line five\n6 \| line six hundred/);
      assert.match(error.message, /Actual \(lines 3-9 of the file\):\n 3 \| line 3/);
      assert.match(error.message, /does not occur in the current file/);
      assert.match(error.message, /Re-inspect the file .* regenerate the patch/);
      assert.deepEqual(error.expectedLines, ['line five', 'line six hundred', 'line 7']);
      assert.equal(digestOf(fs.readFileSync(file)), before);
    } finally {
      cleanup();
    }
  });

  it('keeps CRLF line endings, including on new lines, and the final newline', () => {
    const crlf = lines(30, '\r\n');
    const r = applyUnifiedDiff(crlf, twoHunks);
    assert.equal(r.eol, 'crlf');
    assert.ok(!/[^\r]\n/.test(r.text), 'no bare LF');
    assert.ok(r.text.includes('line six\r\n') && r.text.includes('inserted after 21\r\n'));
    assert.ok(r.text.endsWith('line 30\r\n'));
    // a CRLF patch against a CRLF file works too
    assert.equal(applyUnifiedDiff(crlf, twoHunks.replace(/\n/g, '\r\n')).text, r.text);
  });

  it('keeps each line ending of a mixed file', () => {
    const mixed = 'a\r\nb\nc\r\nd\n';
    const r = applyUnifiedDiff(mixed, '@@ -2,2 +2,2 @@\n b\n-c\n+C\n');
    assert.equal(r.text, 'a\r\nb\nC\nd\n');
  });

  it('keeps a missing final newline unless the diff changes it explicitly', () => {
    assert.equal(applyUnifiedDiff('a\nb', '@@ -1,2 +1,2 @@\n a\n-b\n+c\n').text, 'a\nc');
    assert.equal(applyUnifiedDiff('a\nb\n', '@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n').text, 'a\nc');
    assert.equal(applyUnifiedDiff('', '@@ -0,0 +1,2 @@\n+x\n+y\n').text, 'x\ny\n');
  });

  it('refuses diffs without hunks or for several files', () => {
    assert.throws(() => applyUnifiedDiff('a\n', 'just some text'), (e: unknown) => e instanceof EditError && e.code === 'PATCH_PARSE' && /@@/.test(e.message));
    const two = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n';
    assert.throws(() => applyUnifiedDiff('a\n', two), /touches 2 files/);
  });
});

describe('edit/patch: the fuzzy search is bounded (issue 11, point 7)', () => {
  // Repetitive text, so many positions partly match: the worst case for a fuzzy search.
  const big = Array.from({ length: 30_000 }, (_, i) => `line ${i % 7} of the file`).join('\n') + '\n';
  const context = (from: number) => Array.from({ length: 5 }, (_, i) => ` nomatch ${from + i}`);

  it('gives up on a hunk that matches nowhere, fuzz 10 over 30,000 lines, saying why (before: minutes)', () => {
    const diff = ['--- a/f', '+++ b/f', '@@ -100,11 +100,11 @@', ...context(0), '-line 3 of the file', '+changed', ...context(5), ''].join('\n');
    assert.throws(
      () => applyUnifiedDiff(big, diff, { fuzzFactor: 10, fileName: 'big.md' }),
      (e: unknown) => e instanceof PatchHunkError && /was not found within 1,000,000 line comparisons/.test(e.message) && /use less fuzz/.test(e.message) && /Nothing was changed/.test(e.message),
    );
  });

  it('still finds a hunk with two changed context lines 20,000 lines away from its header', () => {
    const text = lines(30_000);
    const diff = ['--- a/f', '+++ b/f', '@@ -10,5 +10,5 @@', ' CHANGED', ' line 25001', '-line 25002', '+replaced', ' line 25003', ' CHANGED TOO', ''].join('\n');
    const r = applyUnifiedDiff(text, diff, { fuzzFactor: 2 });
    assert.equal(r.hunks[0].fuzz, 2);
    assert.equal(r.hunks[0].appliedLine, 25000);
    assert.ok(r.text.includes('line 25001\nreplaced\nline 25003\n'));
    assert.ok(!r.text.includes('line 25002\n'));
  });
});

describe('edit/patch: structured line edits', () => {
  const text = lines(10);

  it('replaces, inserts and deletes against original numbering (bottom-up)', () => {
    const r = applyLineEdits(text, [
      { startLine: 2, endLine: 3, newText: 'two and three' },
      { op: 'insert', startLine: 6, newText: 'before six\nalso before six\n' },
      { op: 'delete', startLine: 9, endLine: 10 },
      { startLine: 1, endLine: 0, newText: 'top' },
    ]);
    assert.equal(r.text, 'top\nline 1\ntwo and three\nline 4\nline 5\nbefore six\nalso before six\nline 6\nline 7\nline 8\n');
    assert.deepEqual(r.edits.map((e) => [e.op, e.removedLines, e.insertedLines]), [['replace', 2, 1], ['insert', 0, 2], ['delete', 2, 0], ['insert', 0, 1]]);
  });

  it('appends after the last line and keeps CRLF', () => {
    const r = applyLineEdits('a\r\nb\r\n', [{ op: 'insert', startLine: 3, newText: 'c' }]);
    assert.equal(r.text, 'a\r\nb\r\nc\r\n');
    assert.equal(applyLineEdits('a\nb', [{ op: 'insert', startLine: 3, newText: 'c' }]).text, 'a\nb\nc');
  });

  it('rejects overlapping and out-of-range edits with the edit number and the fix', () => {
    assert.throws(() => applyLineEdits(text, [{ startLine: 2, endLine: 5, newText: 'x' }, { startLine: 4, endLine: 6, newText: 'y' }]), /Edit 2 .*overlaps edit 1 .*merge them/);
    assert.throws(() => applyLineEdits(text, [{ startLine: 2, endLine: 5, newText: 'x' }, { op: 'insert', startLine: 4, newText: 'y' }]), /overlaps/);
    assert.throws(() => applyLineEdits(text, [{ startLine: 9, endLine: 12, newText: 'x' }]), (e: unknown) => e instanceof EditError && e.code === 'LINE_EDIT_INVALID' && /has 10 line\(s\)/.test(e.message));
    assert.throws(() => applyLineEdits(text, [{ op: 'insert', startLine: 13, newText: 'x' }]), /use startLine 11 to append/);
    assert.throws(() => applyLineEdits(text, [{ startLine: 5, endLine: 4, newText: '', op: 'replace' }]), /before startLine/);
    assert.throws(() => applyLineEdits(text, []), /at least one/);
    // an insert right before a replaced range is not an overlap
    assert.equal(applyLineEdits('a\nb\n', [{ startLine: 1, newText: 'A' }, { op: 'insert', startLine: 1, newText: '0' }]).text, '0\nA\nb\n');
  });

  it('dispatches through the zod-described patch spec', () => {
    const a = applyPatchSpec(text, { format: 'lineEdits', edits: [{ startLine: 1, newText: 'one' }] });
    assert.equal(a.text.split('\n')[0], 'one');
    const b = applyPatchSpec(text, { format: 'unifiedDiff', diff: '@@ -1 +1 @@\n-line 1\n+one\n' });
    assert.equal(b.text, a.text);
    assert.equal(b.hunks?.[0].offset, 0);
  });
});
