import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { contentChecker, createSkillRegistry, type SkillChecker, type SkillRecord } from '../../../src/core/registry';
import { tempDir, writeSkill } from './registryTestUtil';

/** The skills of one root: clean, with warnings only, broken in lenient mode, and a large one (its text not kept). */
function writeRoot(): string {
  const root = tempDir('deferred-check-');
  writeSkill(root, 'clean');
  writeSkill(root, 'warned', { description: 'You read PDFs with it' }); // second person, no trigger: infos
  writeSkill(root, 'mismatch', { name: 'other-name' }); // a warning in lenient mode
  writeSkill(root, 'no-description', { text: '---\nname: no-description\n---\n\n# x\n' }); // error
  writeSkill(root, 'unclosed', { text: '---\nname: unclosed\ndescription: Does it. Use when asked.\n' }); // error
  writeSkill(root, 'large', { text: `---\nname: large\ndescription: Does it. Use when asked.\n---\n\n${'A line of the body.\n'.repeat(600)}` }); // > 4 KiB, body-too-long
  writeSkill(root, 'lower', { file: 'skill.md' });
  return root;
}

/** The same checker without its shortcut: every skill checked while it is loaded. */
const eager: SkillChecker = (input) => contentChecker(input);

/** What a user sees of a record: its copy as `list --json` prints it (own fields in order), and its JSON. */
function seen(r: SkillRecord): string {
  return JSON.stringify({ ...r }) + JSON.stringify(r);
}

describe('registry: the content rules of a usable skill run when its diagnostics are asked for', () => {
  let root: string;
  before(() => {
    root = writeRoot();
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('gives the same records, statuses and diagnostics as checking every skill at load', async () => {
    const roots = [{ path: root, scope: 'user' as const }];
    const later = (await createSkillRegistry({ roots, lintConfig: false }).refresh()).records;
    const now = (await createSkillRegistry({ roots, lintConfig: false, check: eager }).refresh()).records;
    assert.equal(later.length, 7);
    assert.deepEqual(later.map(seen), now.map(seen));
    const byName = new Map(later.map((r) => [path.basename(r.rootDir), r]));
    assert.equal(byName.get('no-description')!.status, 'broken');
    assert.equal(byName.get('unclosed')!.status, 'broken');
    assert.deepEqual(byName.get('warned')!.diagnostics.map((d) => d.rule).sort(), ['description-no-trigger', 'description-person']);
    assert.ok(byName.get('large')!.diagnostics.some((d) => d.rule === 'body-too-long'));
    assert.deepEqual(Object.keys({ ...byName.get('clean')! }), Object.keys({ ...now.find((r) => r.rootDir.endsWith('clean'))! }));
  });

  it('runs the checker only for skills that may be broken until a diagnostic is asked for, then once per skill', async () => {
    let calls = 0;
    const counted: SkillChecker = Object.assign((input: Parameters<SkillChecker>[0]) => (calls++, contentChecker(input)), { findsNoError: contentChecker.findsNoError });
    const { records } = await createSkillRegistry({ roots: [{ path: root, scope: 'user' }], lintConfig: false, check: counted }).refresh();
    // Checked at load: the two that may be broken, and the large one (its text is not kept to check it later).
    assert.equal(calls, 3);
    for (const r of records) void r.diagnostics;
    assert.equal(calls, 7);
    for (const r of records) void r.diagnostics, void r.digest;
    assert.equal(calls, 7, 'a skill is checked once');
  });

  it('a checker whose shortcut throws gives broken skills that say so, and the scan goes on', async () => {
    const failing: SkillChecker = Object.assign((input: Parameters<SkillChecker>[0]) => contentChecker(input), {
      findsNoError: () => {
        throw new Error('shortcut bug');
      },
    });
    const { records } = await createSkillRegistry({ roots: [{ path: root, scope: 'user' }], lintConfig: false, check: failing }).refresh();
    const clean = records.find((r) => r.rootDir.endsWith('clean'))!;
    assert.equal(clean.status, 'broken');
    assert.match(clean.diagnostics.find((d) => d.rule === 'skill-check-failed')!.message, /Checking .*clean.SKILL\.md failed: shortcut bug/);
  });

  it('checks at load where a configuration may raise a rule to an error, and in strict mode', async () => {
    fs.writeFileSync(path.join(root, '.agent-skills.yaml'), 'rules:\n  description-person: error\n');
    try {
      const { records } = await createSkillRegistry({ roots: [{ path: root, scope: 'user' }] }).refresh();
      assert.equal(records.find((r) => r.rootDir.endsWith('warned'))!.status, 'broken', 'the configured error breaks the skill');
    } finally {
      fs.rmSync(path.join(root, '.agent-skills.yaml'));
    }
    const strict = await createSkillRegistry({ roots: [{ path: root, scope: 'user' }], lintConfig: false, mode: 'strict' }).refresh();
    assert.equal(strict.records.find((r) => r.rootDir.endsWith('mismatch'))!.status, 'broken', 'a name mismatch is an error in strict mode');
  });
});
