// package.json's languageModelTools must be exactly what the code declares: names from ids.ts, the core's
// descriptions, and input schemas generated from the core's zod schemas. Fix with:
//   node --import tsx scripts/sync-manifest.mjs
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { toolInputSchemas, SKILL_TOOL_NAMES } from '../../src/core/runtime/toolSchemas';
import { TOOL_NAMES } from '../../src/extension/ids';
import { toolContributions } from '../../src/extension/tools/toolManifest';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { languageModelTools: { name: string; toolReferenceName: string; inputSchema: Record<string, unknown>; modelDescription: string }[] };
};

describe('languageModelTools in package.json vs the code', () => {
  it('equal the entries generated from the core (run scripts/sync-manifest.mjs when this fails)', () => {
    const expected = toolContributions();
    const actual = manifest.contributes.languageModelTools;
    assert.deepEqual(actual.map((t) => t.name), expected.map((t) => t.name));
    for (const e of expected) assert.deepEqual(actual.find((t) => t.name === e.name), e, `${e.name} differs from toolManifest.ts`);
  });

  it('names every runtime tool verb first and gives each a #reference', () => {
    for (const n of SKILL_TOOL_NAMES) {
      const t = manifest.contributes.languageModelTools.find((x) => x.name === TOOL_NAMES[n]);
      assert.ok(t, `no contributed tool for runtime tool ${n}`);
      assert.match(t.name, /^(load|unload|read|run|list|select)_[a-z_]+$/);
      assert.match(t.toolReferenceName, /^skills[A-Z]\w+$/);
    }
  });

  it('has schemas that accept and refuse what the zod schemas do', () => {
    // A property the zod schema does not know is refused by both (strict objects → additionalProperties: false).
    for (const n of SKILL_TOOL_NAMES) {
      const t = manifest.contributes.languageModelTools.find((x) => x.name === TOOL_NAMES[n]);
      assert.equal(t?.inputSchema.additionalProperties, false, `${n}: inputSchema must refuse unknown properties`);
      assert.equal(toolInputSchemas[n].safeParse({ not_a_field: 1 }).success, false);
    }
    const load = manifest.contributes.languageModelTools.find((x) => x.name === TOOL_NAMES.load);
    assert.deepEqual(load?.inputSchema.required, ['names']);
  });
});
