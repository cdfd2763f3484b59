// The tool table is the one definition of tool names, and every descriptor is complete.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { inputJsonSchema } from '../../../src/core/runtime/inputJsonSchema';
import { TOOLS, findTool, toolsOf } from '../../../src/core/toolTable';
import { REPO, sourceFiles } from '../../support/sourceFiles';

const repo = REPO;
const sources = (dir: string) => sourceFiles(dir, /\.(ts|mjs|js)$/).map((f) => path.relative(REPO, f));

describe('tools: the table', () => {
  it('is the only place a tool name or #reference name is written as a literal (src/, server/, scripts/)', () => {
    const names = [...new Set(TOOLS.flatMap((t) => [t.name, t.referenceName]))];
    const strays: string[] = [];
    // A tool's names are written in toolNames.ts, or in its own descriptor file (a new tool is one descriptor file).
    const own = (f: string, n: string) => f.startsWith(path.join('src', 'core', 'toolTable', 'descriptors') + path.sep) && new RegExp(`name: ['"]${n}['"]`).test(fs.readFileSync(path.join(repo, f), 'utf8'));
    const files = [...sources('src'), ...sources('server'), ...sources('scripts')].filter((f) => !f.startsWith(path.join('src', 'core', 'tools') + path.sep));
    assert.ok(files.length > 100, `only ${files.length} source files found: is the walk broken?`);
    for (const f of files) {
      const text = fs.readFileSync(path.join(repo, f), 'utf8');
      for (const n of names) {
        // A quoted string literal: 'load_skills' or "runSkill" as a whole string (backticks in comments are prose).
        if (new RegExp(`['"]${n}['"]`).test(text) && !own(f, n)) strays.push(`${f}: '${n}'`);
      }
    }
    assert.deepEqual(strays, [], 'tool names must come from src/core/tools/toolNames.ts or the tool\'s own descriptor');
  });

  it('would catch a stray name (the check above is not vacuous)', () => {
    const n = TOOLS[1].name;
    assert.match(`const x = '${n}';`, new RegExp(`['"]${n}['"]`));
  });

  it('keeps the public names models and users already know, in the manifest order', () => {
    assert.deepEqual(
      TOOLS.map((t) => t.name),
      ['list_skills', 'find_skills', 'load_skills', 'unload_skills', 'read_skill_file', 'run_skill_script', 'list_skill_docs', 'select_skill_docs', 'runSkill', 'updateSkill'],
    );
    const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { contributes: { languageModelTools: { name: string }[] } };
    assert.deepEqual(manifest.contributes.languageModelTools.map((t) => t.name), TOOLS.map((t) => t.name));
  });

  it('gives every tool a unique name and id, an object schema refusing unknown fields, a model description and a family', () => {
    assert.equal(new Set(TOOLS.map((t) => t.name)).size, TOOLS.length);
    assert.equal(new Set(TOOLS.map((t) => t.id)).size, TOOLS.length);
    for (const t of TOOLS) {
      const schema = inputJsonSchema(t.input);
      assert.equal(schema.type, 'object', t.name);
      assert.equal(schema.additionalProperties, false, `${t.name} must refuse unknown properties`);
      assert.ok(t.description.length > 60, `${t.name}: description too thin`);
      assert.ok(t.title.length > 3, t.name);
      assert.equal(findTool(t.name), t);
      assert.equal(findTool(t.id), t);
    }
    assert.deepEqual((inputJsonSchema(findTool('load')!.input) as { required: string[] }).required, ['names']);
    assert.deepEqual(toolsOf('catalog').map((t) => t.name), ['runSkill', 'updateSkill']);
    assert.deepEqual(TOOLS.filter((t) => t.sideEffects).map((t) => t.id), ['run_script', 'updateSkill']);
  });
});
