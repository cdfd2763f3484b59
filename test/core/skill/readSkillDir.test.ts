import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { asyncLocalDisk, readSkillDir, RULES, getRule, ruleLevel, validateSkillContent, parseSkillFile, listSkillTextFiles } from '../../../src/core/skill';

describe('readSkillDir', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'readskill-'));
  });

  it('prefers SKILL.md and reads skill.md only when SKILL.md is absent', async () => {
    const both = path.join(root, 'both');
    fs.mkdirSync(both);
    fs.writeFileSync(path.join(both, 'skill.md'), '---\nname: lower\n---\n');
    const entries = fs.readdirSync(both);
    fs.writeFileSync(path.join(both, 'SKILL.md'), '---\nname: upper\n---\n');
    const caseSensitive = fs.readdirSync(both).length === entries.length + 1;
    const r = await readSkillDir(both);
    if (caseSensitive) {
      assert.equal(r.fileName, 'SKILL.md');
      assert.equal(r.parsed?.properties.name, 'upper');
    }
    const lower = path.join(root, 'lower');
    fs.mkdirSync(lower);
    fs.writeFileSync(path.join(lower, 'skill.md'), '---\nname: lower\n---\n');
    const l = await readSkillDir(lower);
    assert.equal(l.fileName, 'skill.md');
    assert.equal(l.parsed?.properties.name, 'lower');
    assert.equal(l.file, path.join(lower, 'skill.md'));
  });

  it('reports skill-file-missing for a folder without SKILL.md or a missing folder', async () => {
    const r = await readSkillDir(path.join(root, 'nope'));
    assert.equal(r.parsed, undefined);
    assert.deepEqual(r.diagnostics.map((d) => d.rule), ['skill-file-missing']);
    assert.match(r.diagnostics[0].message, /has no SKILL\.md\. Create SKILL\.md with `name: nope`/);
  });

  it('reads the first maxChars characters of a longer file exactly, wherever the cut falls (ASCII, a multi-byte character across it, a BOM, a NUL after the sniffed start)', async () => {
    const max = 10_000;
    const ascii = 'a'.repeat(max + 50);
    const cases: [string, string][] = [
      ['ascii', ascii],
      ['ascii-exact', 'b'.repeat(max)],
      // The character after the cut is multi-byte, so byte maxChars - 1 is ASCII but the whole prefix is still maxChars.
      ['multibyte-after', 'c'.repeat(max) + 'é'.repeat(10)],
      // A two-byte character straddles byte maxChars: the first maxChars bytes are fewer than maxChars characters.
      ['multibyte-across', 'd'.repeat(max - 1) + 'é' + 'e'.repeat(20)],
      ['three-byte', '€'.repeat(max + 5)],
      ['astral', 'x' + '😀'.repeat(max)],
      ['bom', '\ufeff' + 'f'.repeat(max + 20)],
      ['nul-late', 'g'.repeat(9000) + '\0' + 'h'.repeat(max)],
    ];
    for (const [name, text] of cases) {
      const dir = path.join(root, name);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'SKILL.md'), text);
      const r = await readSkillDir(dir, asyncLocalDisk, max);
      const expected = text.slice(0, max);
      assert.equal(r.parsed?.text, expected, name);
      assert.equal(r.partBytes, text.length > max ? Buffer.byteLength(text) : undefined, name);
    }
  });

  it('lists text files breadth first, skipping node_modules and binary extensions', async () => {
    fs.mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    fs.mkdirSync(path.join(root, 'node_modules'));
    for (const f of ['SKILL.md', 'a/x.py', 'a/b/y.md', 'a/pic.png', 'node_modules/z.js']) fs.writeFileSync(path.join(root, f), 'x');
    assert.deepEqual(await listSkillTextFiles(asyncLocalDisk, root), ['SKILL.md', 'a/x.py', 'a/b/y.md']);
  });
});

describe('rule table', () => {
  it('has unique ids, a level per mode, a description and a doc for every rule', () => {
    const ids = RULES.map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const r of RULES) {
      assert.ok(r.description.length > 10 && r.doc.length > 20, r.id);
      assert.ok(getRule(r.id) === r);
    }
  });

  it('never makes a lenient rule an error where strict is not (lenient is never stricter)', () => {
    const rank = { off: 0, hint: 1, info: 2, warning: 3, error: 4 } as const;
    for (const r of RULES) assert.ok(rank[r.lenient] <= rank[r.strict] || r.strict === 'off', r.id);
  });

  it('keeps extra checks (not in the reference) below error in strict mode', () => {
    const extras = ['name-reserved-word', 'xml-tags', 'body-too-long', 'body-too-many-tokens', 'reference-missing', 'reference-outside', 'secret-detected', 'allowed-tools-invalid', 'metadata-invalid', 'field-type'];
    for (const id of extras) assert.notEqual(ruleLevel(id, 'strict'), 'error', id);
    assert.equal(ruleLevel('no-such-rule', 'lenient'), 'error');
  });

  it('is what validateSkillContent applies (no I/O)', () => {
    const v = validateSkillContent({ parsed: parseSkillFile('---\nname: x\ndescription: Does d. Use when d is asked for.\nfoo: 1\n---\n'), folderName: 'x' }, { mode: 'strict' });
    assert.deepEqual(v.diagnostics.map((d) => [d.rule, d.severity]), [['field-unknown', getRule('field-unknown')?.strict]]);
  });
});
