// package.json's languageModelTools must be exactly what the code declares: names from ids.ts, the core's
// descriptions, and input schemas generated from the core's zod schemas. Fix with:
//   node --import tsx scripts/sync-manifest.mjs
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { toolInputSchemas, SKILL_TOOL_NAMES } from '../../src/core/runtime/runtimeToolInputs';
import { CATALOG_TOOL_NAMES, TOOL_NAMES } from '../../src/extension/ids';
import { runSkillInputSchema, updateSkillInputSchema } from '../../src/core/catalog/catalogToolInputs';
import { toolContributions } from '../../src/extension/tools/toolManifest';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { languageModelTools: { name: string; toolReferenceName: string; inputSchema: Record<string, unknown>; modelDescription: string; when?: string }[] };
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

  it('contributes runSkill and updateSkill as #runSkill / #updateSkill, enabled by agentSkills.toolSurface', () => {
    const tools = manifest.contributes.languageModelTools;
    for (const [name, schema] of [[CATALOG_TOOL_NAMES.runSkill, runSkillInputSchema], [CATALOG_TOOL_NAMES.updateSkill, updateSkillInputSchema]] as const) {
      const t = tools.find((x) => x.name === name);
      assert.ok(t, `no contributed tool ${name}`);
      assert.equal(t.toolReferenceName, name);
      assert.deepEqual(t.inputSchema.required, ['action']);
      assert.equal(t.inputSchema.additionalProperties, false);
      assert.equal(schema.safeParse({ action: 'list', not_a_field: 1 }).success, false);
      assert.ok(t.modelDescription.length > 400, `${name}: the model description is too thin`);
      assert.equal(t.when, 'config.agentSkills.toolSurface != standard');
    }
    for (const n of SKILL_TOOL_NAMES) assert.equal(tools.find((x) => x.name === TOOL_NAMES[n])?.when, 'config.agentSkills.toolSurface != minimal');
    assert.match(tools.find((x) => x.name === CATALOG_TOOL_NAMES.updateSkill)?.modelDescription ?? '', /asks the user to confirm/);
  });
});
