import * as assert from 'node:assert/strict';
import { parseSkillFile, parseSkillText, validateSkillContent } from '../../../src/core/skill';
import { FRONTMATTER_LIMITS, prescan } from '../../../src/core/skill/parseLimits';
import { hostileDocs } from '../../support/hostileDocs';

const codes = (text: string) => parseSkillFile(text).diagnostics.map((d) => (d.data?.yamlCode as string | undefined) ?? d.rule);

/** Collects process warnings (the yaml package reports through process.emitWarning) while `fn` runs. */
async function warningsDuring(fn: () => void): Promise<string[]> {
  const seen: string[] = [];
  const listener = (w: Error) => seen.push(w.message);
  process.on('warning', listener);
  try {
    fn();
    // Warnings are emitted on the next tick.
    await new Promise<void>((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listener);
  }
  return seen;
}

describe('parseSkillFile: bounded work and one message per problem (issue 11, point 6)', () => {
  it('refuses 400 nested `{` (409 bytes, once 16 s and 400 identical lines) with one message naming the limit', () => {
    const text = `---\n${'{'.repeat(400)}\n---\n`;
    assert.equal(Buffer.byteLength(text), 409);
    const p = parseSkillFile(text);
    assert.deepEqual(codes(text), ['FRONTMATTER_TOO_DEEP']);
    assert.match(p.diagnostics[0].message, /more than 32 levels deep.*- item/);
    assert.equal(p.frontmatter?.yamlOk, false);
  });

  it('refuses a frontmatter over the size limit before parsing it, and the fast path agrees', () => {
    const text = `---\nname: big\ndescription: ${'a'.repeat(FRONTMATTER_LIMITS.maxChars)}\n---\nbody\n`;
    const p = parseSkillFile(text);
    assert.deepEqual(codes(text), ['FRONTMATTER_TOO_LARGE']);
    assert.match(p.diagnostics[0].message, new RegExp(`at most ${FRONTMATTER_LIMITS.maxChars} are read`));
    // The simple-file fast path would read this file without YAML; it must give the same answer.
    assert.deepEqual(parseSkillText(text).diagnostics, p.diagnostics);
  });

  it('refuses block nesting past the depth limit (found by walking the parsed tree, without recursion)', () => {
    const text = `---\n${Array.from({ length: 40 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')}\n---\n`;
    assert.deepEqual(codes(text), ['FRONTMATTER_TOO_COMPLEX']);
    assert.match(parseSkillFile(text).diagnostics[0].message, /more than 32 levels deep/);
  });

  it('counts `- - -` and `? ? ?` on one line as nesting before the parser recurses into them', () => {
    assert.equal(prescan('a:\n  - - - x', FRONTMATTER_LIMITS).depth, 3);
    assert.deepEqual(codes(`---\nmetadata:\n  ${'- '.repeat(4000)}x\n---\n`), ['FRONTMATTER_TOO_DEEP']);
    assert.deepEqual(codes(`---\n${'? '.repeat(4000)}\n---\n`), ['FRONTMATTER_TOO_DEEP']);
  });

  it('refuses thousands of flow collections (1,500 collection keys took the YAML parser a second)', () => {
    const text = `---\n${Array.from({ length: 300 }, (_, i) => `? [a${i}]\n: v`).join('\n')}\n---\n`;
    assert.deepEqual(codes(text), ['FRONTMATTER_TOO_COMPLEX']);
  });

  it('stops alias expansion (billion laughs) with one message', () => {
    const levels = ['l0: &l0 [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= 12; i++) levels.push(`l${i}: &l${i} [${Array(9).fill(`*l${i - 1}`).join(', ')}]`);
    const p = parseSkillFile(`---\nname: bomb\ndescription: d\n${levels.join('\n')}\n---\n`);
    assert.equal(p.diagnostics.length, 1);
    assert.match(p.diagnostics[0].message, /alias/i);
    assert.deepEqual(p.properties, {});
  });

  it('collapses one YAML error repeated on a line into one message, and on many lines into five saying how many more', () => {
    const sameLine = parseSkillFile('---\nname: x\ndescription: a: b: c: d: e\n---\n');
    assert.equal(sameLine.diagnostics.length, 1, sameLine.diagnostics.map((d) => d.message).join('\n'));
    const dup = parseSkillFile(`---\n${Array(40).fill('name: x').join('\n')}\n---\n`);
    assert.equal(dup.diagnostics.length, 5);
    assert.deepEqual(
      dup.diagnostics.map((d) => d.range.start.line),
      [2, 3, 4, 5, 6],
    );
    assert.match(dup.diagnostics[4].message, /Map keys must be unique \(and on 34 more lines below\)/);
    assert.doesNotMatch(dup.diagnostics[0].message, /more lines/);
  });

  it("never lets the yaml package print its own warnings (collection keys are 'stringified')", async () => {
    const text = '---\nname: x\ndescription: y\n? [a, b]\n: c\n{x: y}: z\n---\n';
    const seen = await warningsDuring(() => parseSkillFile(text));
    assert.deepEqual(seen, []);
    // The keys are still read (as their text), so the validator can name them.
    assert.ok(Object.keys(parseSkillFile(text).properties).length >= 3);
  });

  describe('every structured attack: finishes, one message per distinct problem, nothing printed', () => {
    for (const doc of hostileDocs()) {
      it(doc.name, async () => {
        let messages: string[] = [];
        const seen = await warningsDuring(() => {
          const parsed = parseSkillText(doc.text);
          messages = validateSkillContent({ parsed, folderName: 'x' }).diagnostics.map((d) => `${d.rule}: ${d.message}`);
        });
        assert.deepEqual(seen, [], 'no warning from the yaml package');
        assert.equal(new Set(messages).size, messages.length, `repeated messages:\n${messages.join('\n')}`);
        assert.ok(messages.length <= 12, `at most a screenful of findings, got ${messages.length}:\n${messages.slice(0, 20).join('\n')}`);
      });
    }
  });
});
