import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { asyncLocalDisk as nodeFilesHost, parseSkillFile, validateSkill } from '../../src/core/skill';
import { readTextFile } from '../../src/core/host/skillsHost';
import { CachingFilesHost } from '../../server/cachingFilesHost';
import { nodeFileSystem } from '../../server/fileSystem';
import { shortenAtSentence } from '../../server/services/codeActions';
import { hover } from '../../server/services/hover';
import { definition, documentLinks } from '../../server/services/links';
import { documentSymbols, foldingRanges } from '../../server/services/symbols';
import { analyzeSkill } from '../../server/skillAnalysis';
import { otherFileFindings } from '../../server/skillCore';
import { pathToUri } from '../../server/uris';

describe('language server services (without the protocol)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skill-services-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('shortens at the last sentence end within the limit, else at a word boundary', () => {
    assert.equal(shortenAtSentence('One. Two three. Four five six.', 20), 'One. Two three.');
    assert.equal(shortenAtSentence('Version 1.5 is out. More text here', 12), 'Version 1.5');
    assert.equal(shortenAtSentence('short', 10), 'short');
  });

  it('outlines headings outside fenced code and folds the frontmatter', async () => {
    const skillDir = path.join(dir, 'demo');
    fs.mkdirSync(skillDir);
    const text = '---\nname: demo\ndescription: d\n---\n# A\n```\n# not a heading\n```\n## B\ntext\n# C\n';
    const host = new CachingFilesHost(nodeFilesHost);
    const a = await analyzeSkill(pathToUri(path.join(skillDir, 'SKILL.md')), 1, text, 'lenient', {
      host,
      folderFindings: (d, parsed, mode) => otherFileFindings(d, parsed, mode, host),
      configFor: async () => ({ rules: {} }),
    });
    const syms = documentSymbols(a);
    assert.deepEqual(syms.map((s) => [s.name, s.children?.map((c) => c.name)]), [['frontmatter', ['name', 'description']], ['A', ['B']], ['C', []]]);
    assert.deepEqual(foldingRanges(a), [
      { startLine: 0, endLine: 3, kind: 'region' },
      { startLine: 4, endLine: 9 },
      { startLine: 8, endLine: 9 },
    ]);
  });

  it('extracts the body references once: the links a request reads are the ones the reference rules checked (an extra folder, a skill-folder variable)', async () => {
    const skillDir = path.join(dir, 'demo');
    fs.mkdirSync(path.join(skillDir, 'templates'), { recursive: true });
    fs.writeFileSync(path.join(skillDir, 'templates', 'there.md'), 'x\n');
    const text = '---\nname: demo\ndescription: Use when checking the shared extraction.\n---\nFill templates/gone.md from templates/there.md, then run ${CLAUDE_SKILL_DIR}/scripts/none.py.\n';
    const host = new CachingFilesHost(nodeFilesHost);
    const a = await analyzeSkill(pathToUri(path.join(skillDir, 'SKILL.md')), 1, text, 'lenient', {
      host,
      folderFindings: (d, parsed, mode) => otherFileFindings(d, parsed, mode, host),
      configFor: async () => ({ rules: {} }),
    }, nodeFileSystem);
    assert.deepEqual(a.references.map((r) => r.target), ['templates/gone.md', 'templates/there.md', 'scripts/none.py']);
    const missing = a.problems.filter((p) => p.rule === 'reference-missing');
    assert.deepEqual(missing.map((p) => (p.data as { path: string }).path), ['templates/gone.md', 'scripts/none.py']);
    // The same range objects: the rules read the references the server extracted, not a second scan's copies.
    for (const p of missing) assert.ok(a.references.some((r) => r.range === p.range), `${(p.data as { path: string }).path}: a range of a second extraction`);
  });

  it('the folder pass reports the other files only, without running the rules over SKILL.md again', async () => {
    const skillDir = path.join(dir, 'demo');
    fs.mkdirSync(path.join(skillDir, 'scripts'), { recursive: true });
    const key = ['AKIA', 'Z3QX7P2LMN4RTV8W'].join('');
    fs.writeFileSync(path.join(skillDir, 'scripts', 'run.sh'), `export AWS_ACCESS_KEY_ID=${key}\n`);
    const text = `---\nname: demo\ndescription: d\n---\nTODO\n\nRun scripts/run.sh with ${key}.\n\u200b\n\`\`\`\nopen\n`;
    const parsed = parseSkillFile(text);
    const all = await validateSkill({ parsed, folderName: 'demo', rootDir: skillDir }, { checkReferences: false });
    const skillFileRules = new Set(all.diagnostics.filter((d) => d.file === undefined).map((d) => d.rule));
    for (const rule of ['placeholder-text', 'secret-detected', 'invisible-unicode', 'code-fence-unclosed']) assert.ok(skillFileRules.has(rule), `the full run finds ${rule} in SKILL.md`);
    const folderPass = await validateSkill({ parsed, folderName: 'demo', rootDir: skillDir }, { checkReferences: false, skillFileRules: false });
    assert.deepEqual(folderPass.diagnostics.map((d) => [d.rule, d.file]), [['secret-detected', 'scripts/run.sh']]);
    assert.deepEqual(await otherFileFindings(skillDir, parsed, 'lenient', nodeFilesHost), all.diagnostics.filter((d) => d.file !== undefined && d.file !== 'SKILL.md'));
  });

  it('caches file reads until a path below or at the change is invalidated', async () => {
    const f = path.join(dir, 'scripts', 'a.py');
    const host = new CachingFilesHost(nodeFilesHost);
    assert.equal(await host.kind(f), undefined);
    fs.mkdirSync(path.dirname(f));
    fs.writeFileSync(f, 'x = 1\n');
    assert.equal(await host.kind(f), undefined, 'cached until told');
    host.invalidate(path.dirname(f));
    assert.equal(await host.kind(f), 'file');
    assert.equal(await readTextFile(host, f), 'x = 1\n');
    fs.writeFileSync(f, 'x = 2\n');
    assert.equal(await readTextFile(host, f), 'x = 1\n', 'cached until told');
    host.invalidate(f);
    assert.equal(await readTextFile(host, f), 'x = 2\n');
  });

  it('treats a link through a symbolic link out of the skill as outside: no link, no read of the target', async () => {
    const outside = path.join(dir, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.md'), 'private words\n'.repeat(50));
    const skillDir = path.join(dir, 'demo');
    fs.mkdirSync(path.join(skillDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(skillDir, 'assets', 'ok.md'), 'fine\n');
    fs.symlinkSync(outside, path.join(skillDir, 'references'));
    const text = '---\nname: demo\ndescription: d\n---\nSee [secret](references/secret.md) and [ok](assets/ok.md).\n';
    const host = new CachingFilesHost(nodeFilesHost);
    const a = await analyzeSkill(pathToUri(path.join(skillDir, 'SKILL.md')), 1, text, 'lenient', {
      host,
      folderFindings: (d, parsed, mode) => otherFileFindings(d, parsed, mode, host),
      configFor: async () => ({ rules: {} }),
    });
    const links = documentLinks(a, nodeFileSystem);
    assert.deepEqual(links.map((l) => l.tooltip), ['Open assets/ok.md'], 'only the link that really stays inside');
    const onSecret = { line: 4, character: 20 };
    const h = hover(a, onSecret, nodeFileSystem);
    const shown = JSON.stringify(h?.contents ?? '');
    assert.match(shown, /outside the skill folder/);
    assert.doesNotMatch(shown, /tokens/, 'the outside file was read for its token count');
    assert.equal(definition(a, onSecret, nodeFileSystem), undefined, 'go-to-definition leaves the skill folder');
    assert.equal(definition(a, { line: 4, character: 45 }, nodeFileSystem)?.uri, pathToUri(path.join(skillDir, 'assets', 'ok.md')));
  });
});
