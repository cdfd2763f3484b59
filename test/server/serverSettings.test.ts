// The language server's validation settings come two ways (flat in initializationOptions, nested under the
// `agentSkills.validation` section); they are one shape, so a value one way refuses is refused the other way too.
import * as assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, settingsFromInitOptions, settingsFromSection } from '../../server/serverSettings';

describe('server settings: one shape for the validation fields', () => {
  const good = { mode: 'strict', debounceMs: 50, deferToBuiltin: false, builtinSkillValidatorActive: true };
  const bad: Record<string, unknown>[] = [{ mode: 'loose' }, { debounceMs: 10_001 }, { debounceMs: 1.5 }, { deferToBuiltin: 'yes' }, { builtinSkillValidatorActive: 1 }];

  it('takes the same values from initializationOptions and from agentSkills.validation', () => {
    const flat = settingsFromInitOptions(DEFAULT_SETTINGS, good);
    const nested = settingsFromSection(DEFAULT_SETTINGS, { validation: good });
    assert.deepEqual(flat.problems, []);
    assert.deepEqual(nested.problems, []);
    for (const k of Object.keys(good) as (keyof typeof good)[]) assert.equal(nested.settings[k], flat.settings[k], k);
    assert.equal(flat.settings.debounceMs, 50);
  });

  for (const value of bad) {
    it(`refuses ${JSON.stringify(value)} both ways, naming the field and keeping the previous values`, () => {
      const flat = settingsFromInitOptions(DEFAULT_SETTINGS, value);
      const nested = settingsFromSection(DEFAULT_SETTINGS, { validation: value });
      const field = Object.keys(value)[0];
      assert.equal(flat.settings, DEFAULT_SETTINGS);
      assert.equal(nested.settings, DEFAULT_SETTINGS);
      assert.match(flat.problems.join(), new RegExp(`initializationOptions \\(${field}:`));
      assert.match(nested.problems.join(), new RegExp(`agentSkills settings \\(validation\\.${field}:`));
    });
  }
});
