// Red team (issue 22, sixth pass): names that try to pass for another skill's name, at the two checks a served
// name meets (src/core/mcp/mcpSkillsClient.ts: nameFormProblem; src/core/mcp/mcpSkillSource.ts: lookAlikeKey).
// Invisible and control characters never reach the look-alike check: the form check refuses them. Letters that
// look like Latin ones meet the look-alike check, case aside. The end-to-end attack is mcpSpoofing.redteam.
import * as assert from 'node:assert/strict';
import { nameFormProblem } from '../../../src/core/skill/rules/name';
import { lookAlikeKey } from '../../../src/core/text/confusableSkeleton';

describe('names posing as other names (red team)', () => {
  it('refuses control, invisible, bidi, combining and compatibility characters in a name', () => {
    const hostile = {
      NUL: 'p\u0000df',
      'right-to-left override (reads as pdf)': '\u202efdp',
      'left-to-right isolate': '\u2066pdf\u2069',
      'zero-width space': 'pd\u200bf',
      'zero-width joiner': 'p\u200ddf',
      'soft hyphen': 'p\u00addf',
      'combining acute': 'pdf\u0301',
      'full-width f': 'pd\uff46',
      'mathematical sans p': '\u{1d5c9}df',
      'trailing space': 'pdf ',
      newline: 'pdf\n',
    };
    for (const [what, name] of Object.entries(hostile)) assert.ok(nameFormProblem(name), `${what} (${JSON.stringify(name)}) passed the name check`);
  });

  it('well-formed names that read as pdf, in another script or in capitals, share its look-alike key', () => {
    const key = lookAlikeKey('pdf');
    for (const name of ['\u0440df', '\u03c1df', '\u2ca3df', '\ua4d1\ua4d3\ua4dd']) {
      assert.equal(nameFormProblem(name), undefined, `${name} is refused by its form; the look-alike check is not reached`);
      assert.equal(lookAlikeKey(name), key, `${name} (${[...name].map((c) => c.codePointAt(0)!.toString(16)).join(' ')}) escapes the look-alike check`);
    }
    // A name of another script that looks like no local one keeps its own key.
    assert.notEqual(lookAlikeKey('\u0442\u0435\u043a\u0441\u0442'), lookAlikeKey('tekct'));
  });
});
