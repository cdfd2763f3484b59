import * as assert from 'node:assert/strict';
import { capDiagnostics, DIAGNOSTIC_LIMITS, excerpt, FINDINGS_CAPPED_RULE } from '../../../src/core/skill/diagnosticLimits';
import type { Severity, SkillDiagnostic } from '../../../src/core/skill';

const at = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 1 } });
const finding = (i: number, severity: Severity = 'warning', message = `problem ${i}`): SkillDiagnostic => ({ rule: 'some-rule', severity, message, range: at(i) });

describe('diagnosticLimits: one file\'s findings bounded, with "and N more"', () => {
  it('keeps at most maxPerFile findings per file, the last one counting the rest with the worst severity dropped', () => {
    const list = [...Array.from({ length: 500 }, (_, i) => finding(i, 'info')), finding(500, 'error')];
    const out = capDiagnostics(list);
    assert.equal(out.length, DIAGNOSTIC_LIMITS.maxPerFile);
    assert.ok(out.some((d) => d.severity === 'error'), 'errors are kept first');
    const more = out[out.length - 1];
    assert.equal(more.rule, FINDINGS_CAPPED_RULE);
    assert.equal(more.data?.more, 501 - (DIAGNOSTIC_LIMITS.maxPerFile - 1));
    assert.equal(more.severity, 'info');
    assert.match(more.message, /and at least 302 more findings/);
  });

  it('caps each file on its own, and a capped list capped again keeps its count', () => {
    const list = [...Array.from({ length: 300 }, (_, i) => finding(i)), ...Array.from({ length: 300 }, (_, i) => ({ ...finding(i), file: 'scripts/a.py' }))];
    const once = capDiagnostics(list);
    assert.equal(once.length, 2 * DIAGNOSTIC_LIMITS.maxPerFile);
    const twice = capDiagnostics([finding(999, 'error'), ...once.filter((d) => d.file === undefined)]);
    assert.equal(twice.length, DIAGNOSTIC_LIMITS.maxPerFile);
    assert.equal(twice.filter((d) => d.rule === FINDINGS_CAPPED_RULE).length, 1);
    assert.equal(twice.find((d) => d.rule === FINDINGS_CAPPED_RULE)?.data?.more, 301 - (DIAGNOSTIC_LIMITS.maxPerFile - 1));
  });

  it('bounds bytes: long messages are cut in the middle (distinct ends stay distinct), oversized data is dropped', () => {
    const long = (end: string) => `${'x'.repeat(100_000)} ${end}`;
    const out = capDiagnostics([
      { ...finding(1), message: long('rename it') },
      { ...finding(2), message: long('delete it') },
      { ...finding(3), data: { edits: 'y'.repeat(DIAGNOSTIC_LIMITS.maxDataBytes + 1) } },
    ]);
    assert.ok(out.every((d) => d.message.length <= DIAGNOSTIC_LIMITS.maxMessageChars + 40));
    assert.notEqual(out[0].message, out[1].message);
    assert.match(out[0].message, /characters cut\] …x* rename it$/);
    assert.equal(out[2].data, undefined);
    const many = capDiagnostics(Array.from({ length: 150 }, (_, i) => ({ ...finding(i), data: { fix: 'z'.repeat(20_000) } })));
    assert.ok(JSON.stringify(many).length <= DIAGNOSTIC_LIMITS.maxBytesPerFile + 150 * 200, 'the byte limit holds before the count limit');
    assert.equal(many[many.length - 1].rule, FINDINGS_CAPPED_RULE);
  });

  it('excerpt quotes a short text whole and a long one by its start and length, never splitting a surrogate pair', () => {
    assert.equal(excerpt('scripts/a.py'), 'scripts/a.py');
    assert.equal(excerpt('a'.repeat(100), 10), `${'a'.repeat(10)}… (100 characters)`);
    assert.equal(excerpt(`${'a'.repeat(9)}\ud83d\ude00bbb`, 10), `${'a'.repeat(9)}… (14 characters)`);
  });
});
