import * as assert from 'node:assert/strict';
import { parseSkillFile, TextIndex } from '../../../src/core/skill';

const rules = (text: string) => parseSkillFile(text).diagnostics.map((d) => d.rule);

describe('parseSkillFile edge cases', () => {
  it('an unquoted `: ` in a wrapped description is one problem: one yaml-syntax error on its line, naming the fix (issue 25: it was two)', () => {
    const p = parseSkillFile('---\nname: quill\ndescription: Use when working with the Quill ecosystem: Quill OS\n  (local daemon), Quill CLI. Invoke for: setting up.\n---\nBody.\n');
    const yaml = p.diagnostics.filter((d) => d.rule === 'yaml-syntax');
    assert.equal(yaml.length, 1, yaml.map((d) => d.message).join('\n'));
    assert.equal(yaml[0].range.start.line, 2);
    assert.match(yaml[0].message, /must be quoted/);
    // Errors on different lines stay separate.
    const two = parseSkillFile('---\nname: [a\ndescription: b: c\n---\n').diagnostics.filter((d) => d.rule === 'yaml-syntax');
    assert.ok(new Set(two.map((d) => d.range.start.line)).size === two.length, 'one per line');
  });

  it('splits at the first closing `---` only, so `---` rules in the body stay in the body', () => {
    const p = parseSkillFile('---\nname: a\ndescription: b\n---\n# T\n\n---\n\nmore\n---\n');
    assert.deepEqual(p.properties, { name: 'a', description: 'b' });
    assert.equal(p.body, '# T\n\n---\n\nmore\n---\n');
    assert.equal(p.bodyStartLine, 4);
    assert.deepEqual(p.diagnostics, []);
  });

  it('handles CRLF: values without \\r, body from the right line, ranges on the value', () => {
    const p = parseSkillFile('---\r\nname: crlf\r\ndescription: |\r\n  one\r\n  two\r\n---\r\nbody\r\n---\r\nend\r\n');
    assert.equal(p.eol, '\r\n');
    assert.deepEqual(p.properties, { name: 'crlf', description: 'one\ntwo\n' });
    assert.equal(p.body, 'body\r\n---\r\nend\r\n');
    assert.equal(p.bodyStartLine, 6);
    assert.deepEqual(p.fields[0].valueRange, { start: { line: 1, character: 6 }, end: { line: 1, character: 10 } });
  });

  it('reports a BOM and still parses the fields', () => {
    const p = parseSkillFile('\ufeff---\nname: bom\ndescription: d\n---\nx');
    assert.deepEqual(p.diagnostics.map((d) => d.rule), ['file-bom']);
    assert.equal(p.properties.name, 'bom');
  });

  it('reports blank lines before the frontmatter and still parses it', () => {
    const p = parseSkillFile('\n\n---\nname: lb\ndescription: d\n---\nx');
    assert.deepEqual(p.diagnostics.map((d) => d.rule), ['frontmatter-leading-blank']);
    assert.equal(p.properties.name, 'lb');
    assert.equal(p.bodyStartLine, 6);
  });

  it('keeps scalars as written: `version: 1.0` under metadata is "1.0", booleans and nulls are strings', () => {
    const p = parseSkillFile('---\nname: v\ndescription: d\nmetadata:\n  version: 1.0\n  beta: true\n  owner: null\n---\n');
    assert.deepEqual(p.properties.metadata, { version: '1.0', beta: 'true', owner: 'null' });
    const meta = p.fields.find((f) => f.key === 'metadata');
    assert.equal(meta?.kind, 'map');
    assert.deepEqual(meta?.children?.map((c) => [c.key, c.value]), [['version', '1.0'], ['beta', 'true'], ['owner', 'null']]);
  });

  it('reports duplicate keys as yaml-syntax on the repeated key', () => {
    const p = parseSkillFile('---\nname: a\ndescription: d\nname: b\n---\n');
    assert.deepEqual(p.diagnostics.map((d) => d.rule), ['yaml-syntax']);
    assert.equal(p.diagnostics[0].range.start.line, 3);
    assert.match(p.diagnostics[0].message, /Each field may appear once/);
  });

  it('reports an unclosed frontmatter and gives an empty body', () => {
    const p = parseSkillFile('---\nname: a\ndescription: d\n\n# Body');
    assert.deepEqual(rules('---\nname: a\ndescription: d\n\n# Body'), ['frontmatter-unclosed']);
    assert.equal(p.body, '');
  });

  it('reports a frontmatter that is a list or a scalar as not a mapping', () => {
    assert.deepEqual(rules('---\n- a\n- b\n---\n'), ['frontmatter-not-mapping']);
    assert.deepEqual(rules('---\njust text\n---\n'), ['frontmatter-not-mapping']);
  });

  it('reports a missing frontmatter, and an empty file, without throwing', () => {
    assert.deepEqual(rules('# Title\n'), ['frontmatter-missing']);
    assert.deepEqual(rules(''), ['frontmatter-missing']);
  });

  it('treats an empty frontmatter as a mapping with no fields', () => {
    const p = parseSkillFile('---\n---\nbody');
    assert.deepEqual(p.diagnostics, []);
    assert.deepEqual(p.properties, {});
    assert.equal(p.body, 'body');
  });

  it('records YAML the reference parser refuses (flow, anchors, aliases, tags) only when present', () => {
    const p = parseSkillFile('---\nname: a\ndescription: &d text\nx: *d\nallowed-tools: [Read]\nz: !!str 3\n---\n');
    assert.deepEqual(p.frontmatter?.strictYamlIssues?.map((i) => i.kind).sort(), ['alias', 'anchor', 'flow', 'tag']);
    assert.equal(parseSkillFile('---\nname: a\n---\n').frontmatter?.strictYamlIssues, undefined);
  });

  it('keeps key and value ranges for every field, including an empty value', () => {
    const p = parseSkillFile('---\nname:\ndescription: "quoted"\n---\n');
    assert.equal(p.fields[0].kind, 'empty');
    assert.deepEqual(p.fields[0].keyRange, { start: { line: 1, character: 0 }, end: { line: 1, character: 4 } });
    assert.equal(p.fields[1].style, 'double');
    assert.deepEqual(p.fields[1].valueRange, { start: { line: 2, character: 13 }, end: { line: 2, character: 21 } });
  });
});

describe('TextIndex (lazy line index)', () => {
  it('maps offsets and positions both ways, with CRLF line ends excluded', () => {
    const t = new TextIndex('ab\r\ncd\nef');
    assert.deepEqual(t.positionAt(5), { line: 1, character: 1 });
    assert.equal(t.offsetAt({ line: 2, character: 1 }), 8);
    assert.equal(t.lineText(0), 'ab');
    assert.equal(t.lineCount, 3);
    assert.equal(t.hasLine(3), false);
    assert.equal(t.offsetAt({ line: 9, character: 0 }), 9);
  });
});
