// Red team (issue 22, fifth pass): the overlays of read-only skills and the hidden list were kept by skill id alone,
// and pack ids repeat across projects (`pack:tools:x` for every project's `tools.tgz`) while one state folder serves
// them all (the CLI's ~/.agent-skills, an MCP server's). `agent-skills patch pack:tools:x` in project A, then
// `inspect pack:tools:x --pack tools.tgz` in project B printed A's edited text over B's own pack; `archive` in A hid
// B's skill. Now both are keyed by id and where the skill is installed (SkillCatalog.historyKey), as revisions are.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildTar } from '../support/archiveBuilder';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { makeTempDir } from '../support/tempDir';
import { CLI } from './mcpSupport';

const skill = (body: string) => `---\nname: x\ndescription: Use x for the project's tools.\n---\n${body}\n`;
const DIFF = '--- a/SKILL.md\n+++ b/SKILL.md\n@@ -5 +5 @@\n-Body of A\n+Body of A with SECRET-PLAN-22d\n';

describe('catalog red team: a pack skill\'s overlay and hidden state stay with the project whose pack it is', function () {
  this.timeout(120_000);
  let tmp: { dir: string; cleanup: () => void };
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => (tmp = makeTempDir('overlay-places-')));
  afterEach(() => tmp.cleanup());

  /** A project folder with its own `tools.tgz` holding skill `x`. */
  const project = (name: string, body: string) => {
    const dir = path.join(tmp.dir, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'tools.tgz'), buildTar([{ name: 'x/SKILL.md', data: skill(body) }], true));
    return dir;
  };
  const cli = (cwd: string, args: string[], source = ['--pack', 'tools.tgz']) => {
    const r = spawnSync(process.execPath, [CLI, ...args, ...source, '--state-dir', path.join(tmp.dir, 'state')], { cwd, env: { ...process.env, HOME: path.join(tmp.dir, 'home') }, encoding: 'utf8', timeout: 60_000 });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  };

  it('A\'s patch of pack:tools:x is served in A only; B reads its own pack', () => {
    const a = project('a', 'Body of A');
    const b = project('b', 'Body of B');
    fs.writeFileSync(path.join(tmp.dir, 'edit.diff'), DIFF);
    const patched = cli(a, ['patch', 'pack:tools:x', '--diff', path.join(tmp.dir, 'edit.diff'), '--reason', 'A private edit']);
    assert.equal(patched.status, 0, patched.out);
    const inB = cli(b, ['inspect', 'pack:tools:x']);
    assert.equal(inB.status, 0, inB.out);
    assert.doesNotMatch(inB.out, /SECRET-PLAN-22d|Body of A/, `project B is served project A's overlay:\n${inB.out}`);
    assert.match(inB.out, /Body of B/, inB.out);
    const historyB = cli(b, ['history', 'pack:tools:x']);
    assert.doesNotMatch(historyB.out, /A private edit/, `project B lists project A's overlay revisions:\n${historyB.out}`);
    const inA = cli(a, ['inspect', 'pack:tools:x']);
    assert.equal(inA.status, 0, inA.out);
    assert.match(inA.out, /Body of A with SECRET-PLAN-22d/, `the overlay no longer applies in its own project:\n${inA.out}`);
    assert.match(cli(a, ['history', 'pack:tools:x']).out, /A private edit/);
  });

  it('a plugin skill edited in one project\'s plugin folder is not served from another project\'s copy of the plugin', () => {
    const plugin = (dir: string, body: string) => {
      fs.mkdirSync(path.join(dir, 'plugin', 'x'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'plugin', 'x', 'SKILL.md'), skill(body));
      return ['--root', `plugin:acme.tools:${path.join(dir, 'plugin')}`];
    };
    const a = project('a', 'Body of A');
    const b = project('b', 'Body of B');
    const [inA, inB] = [plugin(a, 'Body of A'), plugin(b, 'Body of B')];
    fs.writeFileSync(path.join(tmp.dir, 'edit.diff'), DIFF);
    const patched = cli(a, ['patch', 'plugin:acme.tools:x', '--diff', path.join(tmp.dir, 'edit.diff')], inA);
    assert.equal(patched.status, 0, patched.out);
    const readB = cli(b, ['inspect', 'plugin:acme.tools:x'], inB);
    assert.equal(readB.status, 0, readB.out);
    assert.doesNotMatch(readB.out, /SECRET-PLAN-22d/, `project B's plugin copy is served project A's overlay:\n${readB.out}`);
    assert.match(cli(a, ['inspect', 'plugin:acme.tools:x'], inA).out, /SECRET-PLAN-22d/, 'the overlay no longer applies to its own plugin folder');
  });

  // Sixth pass (2026-11-27): the registry gives two skills of one id distinct ids by appending `@<skill folder>`
  // (applyPrecedence), and the state key was made from that id, so a second plugin of the same name installed
  // anywhere else (an impostor `acme.tools`) changed the key: the user's patch of their own plugin's skill stopped
  // applying (its original text was served again) and their archived skill came back.
  it('a plugin skill keeps its overlay and its archive when another plugin of that name appears elsewhere', () => {
    const plugin = (dir: string, body: string) => {
      fs.mkdirSync(path.join(dir, 'plugin', 'x'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'plugin', 'x', 'SKILL.md'), skill(body));
      return ['--root', `plugin:acme.tools:${path.join(dir, 'plugin')}`];
    };
    const a = project('a', 'Body of A');
    const mine = plugin(a, 'Body of A');
    const impostor = plugin(path.join(tmp.dir, 'elsewhere'), 'Body of the impostor');
    fs.writeFileSync(path.join(tmp.dir, 'edit.diff'), DIFF);
    const patched = cli(a, ['patch', 'plugin:acme.tools:x', '--diff', path.join(tmp.dir, 'edit.diff')], mine);
    assert.equal(patched.status, 0, patched.out);
    const both = [...impostor, ...mine];
    const listed = JSON.parse(cli(a, ['list', '--json'], both).out) as { skills: { id: string; rootDir: string }[] };
    const myId = listed.skills.find((s) => s.rootDir === path.join(a, 'plugin', 'x'))?.id;
    assert.ok(myId && myId !== 'plugin:acme.tools:x', `expected the registry to tell the two apart by folder: ${JSON.stringify(listed.skills.map((s) => s.id))}`);
    const read = cli(a, ['inspect', myId], both);
    assert.equal(read.status, 0, read.out);
    assert.match(read.out, /Body of A with SECRET-PLAN-22d/, `the user's patch no longer applies once another plugin of that name appeared:\n${read.out}`);
    const archived = cli(a, ['archive', 'plugin:acme.tools:x'], mine);
    assert.equal(archived.status, 0, archived.out);
    const hidden = cli(a, ['inspect', myId], both);
    assert.notEqual(hidden.status, 0, `the archived skill came back once another plugin of that name appeared:\n${hidden.out}`);
    const other = listed.skills.find((s) => s.rootDir !== path.join(a, 'plugin', 'x'))?.id as string;
    assert.match(cli(a, ['inspect', other], both).out, /Body of the impostor/, 'the archive hid the other plugin\'s skill too');
  });

  it('archiving pack:tools:x in A hides it in A only', () => {
    const a = project('a', 'Body of A');
    const b = project('b', 'Body of B');
    const archived = cli(a, ['archive', 'pack:tools:x']);
    assert.equal(archived.status, 0, archived.out);
    const inB = cli(b, ['inspect', 'pack:tools:x']);
    assert.equal(inB.status, 0, `project A's archive hid project B's skill:\n${inB.out}`);
    assert.match(inB.out, /Body of B/, inB.out);
    assert.notEqual(cli(a, ['inspect', 'pack:tools:x']).status, 0, 'the archive no longer hides the skill in its own project');
    const restored = cli(a, ['restore', 'pack:tools:x']);
    assert.equal(restored.status, 0, restored.out);
    assert.match(cli(a, ['inspect', 'pack:tools:x']).out, /Body of A/, 'restore shows it again');
  });
});
