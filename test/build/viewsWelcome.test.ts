// The Skills view's welcome content (shown when it lists nothing): in an untrusted workspace whose skills are
// hidden it says so and offers Manage Workspace Trust, never "No Agent Skills found" with Create Skill.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HIDDEN_SKILLS_KEY, MANAGE_TRUST_COMMAND, VIEWS } from '../../src/extension/ids';

interface Welcome {
  view: string;
  contents: string;
  when?: string;
}

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as { contributes: { viewsWelcome: Welcome[] } };
const available = manifest.contributes.viewsWelcome.filter((w) => w.view === VIEWS.available);

/** Whether a `when` of only `key` and `!key` terms joined by && holds for these context values. */
function holds(when: string | undefined, ctx: Record<string, boolean>): boolean {
  return (when ?? 'true').split('&&').every((t) => {
    const term = t.trim();
    if (term === 'true') return true;
    return term.startsWith('!') ? !ctx[term.slice(1)] : !!ctx[term];
  });
}

describe('Skills view welcome content', () => {
  it('with workspace skills hidden by Restricted Mode: only the trust message, with a Manage Workspace Trust button', () => {
    const shown = available.filter((w) => holds(w.when, { 'agentSkills.scanned': true, [HIDDEN_SKILLS_KEY]: true }));
    assert.equal(shown.length, 1, JSON.stringify(shown));
    assert.match(shown[0].contents, /hidden until you trust the folder/);
    assert.ok(shown[0].contents.includes(`[Manage Workspace Trust](command:${MANAGE_TRUST_COMMAND})`), shown[0].contents);
    assert.doesNotMatch(shown[0].contents, /No Agent Skills found|createSkill/);
  });

  it('with nothing hidden: "No Agent Skills found" and Create Skill', () => {
    const shown = available.filter((w) => holds(w.when, { 'agentSkills.scanned': true, [HIDDEN_SKILLS_KEY]: false }));
    assert.equal(shown.length, 1, JSON.stringify(shown));
    assert.match(shown[0].contents, /No Agent Skills found[\s\S]*command:agentSkills\.createSkill/);
  });
});
