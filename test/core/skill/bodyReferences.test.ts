import * as assert from 'node:assert/strict';
import { estimateTokens, extractBodyReferences, parseSkillFile } from '../../../src/core/skill';

const refs = (body: string, folders?: string[]) =>
  extractBodyReferences(parseSkillFile(`---\nname: r\ndescription: d\n---\n${body}`), { folders }).map((r) => [r.kind, r.path, r.range.start.line, r.range.start.character]);

describe('extractBodyReferences', () => {
  it('finds relative links and images, skipping URLs, anchors, absolute and templated paths', () => {
    assert.deepEqual(refs('[a](references/a.md) ![i](assets/i.png "title") [u](https://x.y) [h](#top) [abs](/etc/x) [t]({base}/x.md) [m](mailto:a@b)'), [
      ['link', 'references/a.md', 4, 4],
      ['link', 'assets/i.png', 4, 26],
    ]);
  });

  it('strips fragments and queries and decodes percent escapes', () => {
    assert.deepEqual(refs('[a](docs/My%20Guide.md#part) [b](<with space.md>)'), [
      ['link', 'docs/My Guide.md', 4, 4],
      ['link', 'with space.md', 4, 34],
    ]);
  });

  it('finds reference-style definitions', () => {
    assert.deepEqual(refs('See [guide].\n\n[guide]: references/guide.md'), [['link', 'references/guide.md', 6, 9]]);
  });

  it('finds scripts/, references/ and assets/ paths in prose, inline code and code blocks', () => {
    const body = 'Run scripts/a.py, then `./references/b.md`.\n\n```bash\npython scripts/c.py assets/d.json\n```\n';
    assert.deepEqual(refs(body), [
      ['text', 'scripts/a.py', 4, 4],
      ['inline-code', './references/b.md', 4, 24],
      ['code-block', 'scripts/c.py', 7, 7],
      ['code-block', 'assets/d.json', 7, 20],
    ]);
  });

  it('ignores links inside code blocks, bare folder names, globs and paths inside longer paths', () => {
    const body = '```md\n[x](inside.md)\n```\nThe scripts/ folder. scripts/*.py and /opt/tool/scripts/x.py and $DIR/scripts/y.py';
    assert.deepEqual(refs(body), []);
  });

  it('counts extra top-level folders only when asked', () => {
    assert.deepEqual(refs('Open `templates/viewer.html`.'), []);
    assert.deepEqual(refs('Open `templates/viewer.html`.', ['templates']), [['inline-code', 'templates/viewer.html', 4, 6]]);
  });

  it('handles `~~~` fences and an unclosed fence running to the end', () => {
    assert.deepEqual(refs('~~~\n[a](x.md)\n~~~\n[b](y.md)\n```\n[c](z.md)'), [['link', 'y.md', 7, 4]]);
  });
});

describe('estimateTokens', () => {
  it('is characters / 4 rounded up', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcde'), 2);
    assert.equal(estimateTokens('x'.repeat(20000)), 5000);
  });
});
