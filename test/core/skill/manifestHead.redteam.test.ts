// Red team (seventh round, attack23): file-unreferenced leaves a skill's own manifest alone (toolFiles.ts
// isSkillManifest, last session's seventh-draw rule): every data file at the skill's root has its first 4,096
// characters searched for a `name:`/`id =` key with `^\s*…` under the multiline flag. `\s*` crosses line breaks, so
// from each of 4,096 empty lines it ran to the end of the head: ~55 ms a file, and a skill may hold 500 files. A skill
// of 400 root `.json` files of 4,096 newlines each (1.6 MB) took 36 s of `agent-skills validate` (7 s of CPU, load 42),
// the same files holding `x` on each line 1 s. Now the key's indent is white space within its line.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseSkillText, validateSkill } from '../../../src/core/skill';
import { removeTempDir } from '../../support/tempDir';
import { cpuMs } from '../../support/cpuTime';

const FILES = 60;

describe('validate: root data files of empty lines (red team)', function () {
  this.timeout(600_000);
  let tmp = '';
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'manifest-head-'));
  });
  after(() => removeTempDir(tmp));

  /** A skill whose root holds FILES data files of `content`, and its validation. */
  const skill = (name: string, content: string) => {
    const dir = path.join(tmp, name);
    fs.mkdirSync(dir);
    for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(dir, `m${i}.${['json', 'yaml', 'toml'][i % 3]}`), content);
    return () => validateSkill({ parsed: parseSkillText(`---\nname: ${name}\ndescription: Checks manifests. Use when testing.\n---\nBody.\n`), folderName: name, rootDir: dir });
  };

  for (const [shape, unit] of [['newlines', '\n'], ['carriage returns', '\r'], ['CRLF', '\r\n'], ['line separators', '\u2028']] as const) {
    it(`${shape}: costs at most 4x what the same bytes of plain lines cost`, async () => {
      const hostile = skill(`h-${shape.replace(/\W/g, '')}`, unit.repeat(Math.ceil(4096 / unit.length)));
      const plain = skill(`p-${shape.replace(/\W/g, '')}`, `x${unit}`.repeat(Math.ceil(4096 / (unit.length + 1))));
      await hostile();
      await plain();
      let verdict = '';
      for (let attempt = 0; attempt < 3; attempt++) {
        const h = Math.min(await cpuMs(hostile), await cpuMs(hostile));
        const p = Math.min(await cpuMs(plain), await cpuMs(plain));
        console.log(`      ${FILES} files of ${shape}: ${h.toFixed(0)} ms of CPU; of plain lines ${p.toFixed(0)} ms`);
        verdict = h > 4 * p + 40 ? `${h.toFixed(0)} ms against ${p.toFixed(0)} ms for plain lines (limit ${(4 * p + 40).toFixed(0)})` : '';
        if (!verdict) break;
      }
      assert.equal(verdict, '', `${FILES} data files of ${shape}`);
    });
  }
});
