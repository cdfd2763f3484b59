import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FIELDS } from '../../src/core/skill';
import { repoRoot } from './lspTestClient';

const tool = path.join(repoRoot, 'node_modules/vscode-tmgrammar-test/dist/unit.js');
const runTool = (...args: string[]) => spawnSync(process.execPath, [tool, ...args], { cwd: repoRoot, encoding: 'utf8' });

interface GrammarContribution {
  language?: string;
  scopeName: string;
  path: string;
  injectTo?: string[];
}

describe('TextMate grammar for SKILL.md', function () {
  this.timeout(60_000);

  it('passes the grammar tests in test/grammar (vscode-tmgrammar-test)', () => {
    const r = runTool('test/grammar/*.skill.md');
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /frontmatter\.test\.skill\.md run successfuly/);
    assert.match(r.stdout, /paths\.test\.skill\.md run successfuly/);
  });

  it('fails a grammar test whose expected scope is wrong (the check can fail)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skill-grammar-'));
    try {
      const file = path.join(dir, 'wrong.skill.md');
      fs.writeFileSync(file, '<!-- SYNTAX TEST "text.skill" "wrong on purpose"\n---\nfavorite-color: blue\n<!-- <------------- support.type.property-name.known.skill\n---\n');
      const r = runTool('--config', path.join(repoRoot, 'package.json'), file);
      assert.notEqual(r.status, 0, r.stdout);
      assert.match(r.stdout, /missing required scopes: support\.type\.property-name\.known\.skill/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('marks exactly the keys of the core field catalog as known', () => {
    const g = JSON.parse(fs.readFileSync(path.join(repoRoot, 'syntaxes/skill.tmLanguage.json'), 'utf8')) as {
      repository: { frontmatter: { patterns: { match?: string; captures?: Record<string, { name: string }> }[] } };
    };
    const known = g.repository.frontmatter.patterns.find((p) => p.captures?.['1']?.name === 'support.type.property-name.known.skill');
    const alternation = /^\^\(([^)]*)\)/.exec(known?.match ?? '')?.[1] ?? '';
    const keys = alternation.split('|').map((k) => k.replace(/\\-/g, '-'));
    assert.deepEqual([...keys].sort(), FIELDS.map((f) => f.key).sort());
  });

  it('is contributed for SKILL.md only, and injected into no other grammar than its own', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      contributes: { grammars: GrammarContribution[]; languages: { id: string; filenames?: string[] }[] };
    };
    const ours = pkg.contributes.grammars.filter((g) => g.path.startsWith('./syntaxes/'));
    assert.deepEqual(ours.map((g) => g.scopeName).sort(), ['skill.paths.injection', 'text.skill']);
    for (const g of ours) assert.ok(fs.existsSync(path.join(repoRoot, g.path)), g.path);
    assert.deepEqual(ours.find((g) => g.injectTo)?.injectTo, ['text.skill']);
    const lang = pkg.contributes.languages.find((l) => l.id === 'skill');
    assert.deepEqual(lang?.filenames, ['SKILL.md']);
  });
});
