// Red team (issue 22, fourth pass): revision histories were kept by skill id alone, and ids repeat across projects
// (`workspace:pdf` in each) while one state folder serves them all (the CLI's ~/.agent-skills, an MCP server's). In
// project B, `agent-skills history pdf` listed project A's edits and `restore pdf 2` wrote A's private text into B's
// skill (a model working in a hostile repository could read another project's skill history the same way). Now a
// skill written where it lives keeps its history under its id and its folder (SkillCatalog.historyKey).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { makeTempDir } from '../support/tempDir';
import { CLI } from './mcpSupport';

const SKILL = '---\nname: pdf\ndescription: Use pdf for PDF files.\n---\nA body\n';
const DIFF = '--- a/SKILL.md\n+++ b/SKILL.md\n@@ -5 +5 @@\n-A body\n+A body with SECRET-PLAN-22c\n';

describe('catalog red team: one project never sees or restores another project\'s revisions of a same-named skill', function () {
  this.timeout(120_000);
  let tmp: { dir: string; cleanup: () => void };
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => (tmp = makeTempDir('history-places-')));
  afterEach(() => tmp.cleanup());

  const project = (name: string) => {
    const dir = path.join(tmp.dir, name);
    fs.mkdirSync(path.join(dir, '.github', 'skills', 'pdf'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.github', 'skills', 'pdf', 'SKILL.md'), SKILL);
    return dir;
  };
  const cli = (cwd: string, args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args, '--state-dir', path.join(tmp.dir, 'state')], { cwd, env: { ...process.env, HOME: path.join(tmp.dir, 'home') }, encoding: 'utf8', timeout: 60_000 });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  };

  it('project B lists none of A\'s revisions and cannot restore them; A keeps its own', () => {
    const a = project('a');
    const b = project('b');
    fs.writeFileSync(path.join(tmp.dir, 'edit.diff'), DIFF);
    const patched = cli(a, ['patch', 'pdf', '--diff', path.join(tmp.dir, 'edit.diff'), '--reason', 'A private edit']);
    assert.equal(patched.status, 0, patched.out);
    const historyB = cli(b, ['history', 'pdf']);
    assert.doesNotMatch(historyB.out, /A private edit/, `project B lists project A's revisions:\n${historyB.out}`);
    const restoreB = cli(b, ['restore', 'pdf', '2']);
    assert.notEqual(restoreB.status, 0, `project B restored A's revision:\n${restoreB.out}`);
    assert.equal(fs.readFileSync(path.join(b, '.github', 'skills', 'pdf', 'SKILL.md'), 'utf8'), SKILL, "A's text reached B's skill");
    const historyA = cli(a, ['history', 'pdf']);
    assert.match(historyA.out, /A private edit/, historyA.out);
    const restoreA = cli(a, ['restore', 'pdf', '1']);
    assert.equal(restoreA.status, 0, restoreA.out);
    assert.equal(fs.readFileSync(path.join(a, '.github', 'skills', 'pdf', 'SKILL.md'), 'utf8'), SKILL, 'A restores its own first revision');
  });
});
