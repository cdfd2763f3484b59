import * as assert from 'node:assert/strict';
import { applyUnifiedDiff, contentWithLineNumbers, renderLineDiff, unifiedDiffOf } from '../../../src/core/edit';

describe('edit/lineDiff', () => {
  const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

  it('renders old numbers on removed lines and new numbers on added and context lines', () => {
    const after = before.replace('line 12\n', 'line twelve\nline 12b\n');
    const d = renderLineDiff(before, after, { context: 1 });
    assert.equal(d.text, ['@@ -11,3 +11,4 @@', '  11 |  line 11', '  12 | -line 12', '  12 | +line twelve', '  13 | +line 12b', '  14 |  line 13'].join('\n'));
    assert.deepEqual([d.added, d.removed, d.hunks, d.identical], [2, 1, 1, false]);
  });

  it('says so when nothing changed, and notes line-ending and final-newline changes', () => {
    assert.equal(renderLineDiff(before, before).text, '(no changes)');
    const crlf = renderLineDiff('a\nb\n', 'a\r\nb\r\n');
    assert.equal(crlf.hunks, 0);
    assert.deepEqual(crlf.notes, ['Line endings changed from lf to crlf.']);
    assert.deepEqual(renderLineDiff('a\n', 'a').notes, ['The final newline was removed.']);
  });

  it('numbers content like "   1 | text", from any start line', () => {
    assert.equal(contentWithLineNumbers('a\r\nb\n'), '   1 | a\n   2 | b');
    assert.equal(contentWithLineNumbers(''), '');
    assert.equal(contentWithLineNumbers('x\ny', { startLine: 9999 }), ' 9999 | x\n10000 | y');
  });

  it('produces a unified diff that applies back to the original', () => {
    const after = before.replace('line 3\n', 'three\n').replace('line 18\n', '');
    const diff = unifiedDiffOf(before, after, 'SKILL.md');
    assert.match(diff, /--- a\/SKILL\.md/);
    assert.equal(applyUnifiedDiff(before, diff).text, after);
  });
});
