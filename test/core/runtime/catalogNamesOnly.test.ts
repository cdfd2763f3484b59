// A skill listed in `<available_skills>` by name only (the `<more_skills>` part past the described share of the
// budget) is loadable by the name the block shows: the runtime composes the block for a real folder of skills,
// the test reads a name from that part, loads it through the runtime's load tool and finds its body in the next
// composition.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { createSkillsRuntime } from '../../../src/core/runtime';
import { makeTempDir } from '../../support/tempDir';
import { folderSource, writeSkill } from './runtimeSupport';

describe('runtime: skills listed by name only', () => {
  let tmp: { dir: string; cleanup: () => void };
  afterEach(() => tmp?.cleanup());

  it('lists the tail of a large catalog by name, and loads one of those skills by the name shown', async function () {
    this.timeout(60_000);
    tmp = makeTempDir('rt-names-only-');
    const skills = path.join(tmp.dir, 'skills');
    const filler = 'It validates every record, reports problems with line numbers, and writes a summary for review. ';
    for (let i = 0; i < 120; i++) {
      writeSkill(skills, `kind${i}-tool`, { description: `Converts kind${i} files. ${filler.repeat(2)}`, body: `# kind${i}\n\nBODY-OF-kind${i}.` });
    }
    const rt = createSkillsRuntime({ source: folderSource(skills), stateDir: path.join(tmp.dir, 'state'), loadMode: 'session', catalogBudget: { maxTokens: 2000 } });
    const s = await rt.openSession('chat');
    await rt.beginTurn(s.id, 'convert the kind7 files');
    const first = await rt.compose(s.id, [{ role: 'user', content: 'convert the kind7 files' }]);
    const block = first.sections.catalog;
    const part = /<more_skills>\n([\s\S]*?)\n<\/more_skills>/.exec(block);
    assert.ok(part, `the block lists some skills by name only:\n${block.slice(-600)}`);
    const names = part[1].split('\n');
    assert.ok(names.length > 10, `${names.length} names listed alone`);
    assert.ok(first.catalog.shown.length > 50, `${first.catalog.shown.length} of 120 in the block`);
    assert.match(block, /listed by name only: \S+ loads one by that name/);
    // A name from the part, not described anywhere in the block, loads by that name.
    const name = names[names.length - 1];
    assert.doesNotMatch(block, new RegExp(`<name>${name}</name>`));
    const loaded = await rt.invoke('load', { names: [name] }, { sessionId: s.id });
    assert.ok(loaded.ok, `load ${name}: ${JSON.stringify(loaded)}`);
    const next = await rt.compose(s.id, []);
    assert.ok(next.instructions.includes(`BODY-OF-${name.replace('-tool', '')}.`), `the body of ${name} is in the next composition`);
    await rt.flush();
  });
});
