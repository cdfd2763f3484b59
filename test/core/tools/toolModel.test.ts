// One result and one error shape across both tool families, and what the model reads of a result: real skill
// folders in temp dirs, a real script run (child process), the real catalog; calls go through the table's
// descriptors exactly as the VS Code, CLI and MCP adapters make them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SkillCatalog } from '../../../src/core/catalog';
import { createScriptRunner } from '../../../src/core/exec';
import { createSkillsRuntime, skillToolsOf, type SkillsRuntime } from '../../../src/core/runtime';
import type { ToolFailure, ToolResult } from '../../../src/core/tools';
import { TOOLS, findTool, toolResultText, type ToolCallContext } from '../../../src/core/toolTable';
import { makeTempDir } from '../../support/tempDir';
import { writeSkill } from '../runtime/runtimeSupport';

function failure(r: ToolResult): ToolFailure['error'] {
  if (r.ok) assert.fail(`expected a refusal, got ${JSON.stringify(r.result).slice(0, 300)}`);
  return r.error;
}

describe('tools: one model across both families', function () {
  this.timeout(60000);
  let tmp: { dir: string; cleanup: () => void };
  let runtime: SkillsRuntime;
  let ctx: ToolCallContext;

  beforeEach(async () => {
    tmp = makeTempDir('tool-model-');
    const skills = path.join(tmp.dir, 'skills');
    writeSkill(skills, 'demo', { files: { 'scripts/hello.py': 'import sys\nprint("hello", *sys.argv[1:])\n', 'notes.md': '# Notes\n' } });
    const catalog = await SkillCatalog.open({ roots: [{ path: skills, scope: 'workspace', source: 'test' }], stateDir: path.join(tmp.dir, 'catalog') });
    const runner = createScriptRunner({ stateDir: path.join(tmp.dir, 'exec'), sandbox: 'off' });
    runtime = createSkillsRuntime({ source: catalog.skillSource(), stateDir: path.join(tmp.dir, 'state'), executor: runner });
    ctx = { sessionId: 'chat', surface: 'test', services: { runtime: async () => skillToolsOf(runtime), catalog: async () => catalog } };
    await runtime.openSession('chat');
  });

  afterEach(async () => {
    await runtime.flush();
    tmp.cleanup();
  });

  const call = (name: string, input: unknown) => findTool(name)!.invoke(ctx, input);

  it('gives the model a run without its log-only fields (phases, argv), which the host still has', async () => {
    assert.ok((await call('load_skills', { names: ['demo'] })).ok);
    const r = await call('run_skill_script', { script: 'scripts/hello.py', args: ['Ada'] });
    if (!r.ok) assert.fail(JSON.stringify(r.error));
    const full = r.result as Record<string, unknown>;
    assert.ok('phases' in full && 'argv' in full, `the host's result lost its diagnostics: ${Object.keys(full).join(', ')}`);
    assert.ok(JSON.stringify(full.argv).includes('Ada'));
    const text = toolResultText(r);
    const seen = JSON.parse(text) as Record<string, unknown>;
    assert.equal(seen.exit_code, 0);
    assert.match(String(seen.stdout), /hello Ada/);
    assert.ok(!('phases' in seen) && !('argv' in seen), `the model got log-only fields: ${text}`);
    assert.ok(!/"phases"|"argv"/.test(text));
  });

  it('refuses in one shape, snake_case code, message naming the thing, a hint, in both families', async () => {
    const runtimeMissing = failure(await call('load_skills', { names: ['nope'] }));
    const catalogMissing = failure(await call('runSkill', { action: 'inspect', skill: 'nope' }));
    const runtimeBadInput = failure(await call('load_skills', { names: 'demo' }));
    const catalogBadInput = failure(await call('updateSkill', { action: 'patch', skill: 'demo' }));
    const listBadInput = failure(await call('list_skills', { filter: 3 }));
    const findBadInput = failure(await call('find_skills', { query: '' }));
    for (const e of [runtimeMissing, catalogMissing, runtimeBadInput, catalogBadInput, listBadInput, findBadInput]) {
      assert.deepEqual(Object.keys(e).filter((k) => k !== 'details').sort(), ['code', 'hint', 'message'], JSON.stringify(e));
      assert.match(e.code, /^[a-z]+(_[a-z0-9]+)*$/, `one spelling of codes: ${e.code}`);
      assert.ok(e.hint.length > 10, `no hint in ${JSON.stringify(e)}`);
    }
    assert.match(runtimeMissing.message, /nope/);
    assert.match(catalogMissing.message, /nope/);
    assert.equal(catalogMissing.code, 'not_found');
    for (const [e, field] of [[runtimeBadInput, 'names'], [catalogBadInput, 'diff'], [listBadInput, 'filter'], [findBadInput, 'query']] as const) {
      assert.equal(e.code, 'invalid_input');
      assert.match(e.message, new RegExp(`${field}: `), `the message must name the field ${field}: ${e.message}`);
    }
    // The model reads every refusal the same way.
    for (const e of [runtimeMissing, catalogMissing]) {
      assert.match(toolResultText({ ok: false, tool: 'x', error: e }), new RegExp(`^Error \\(${e.code}\\): .+\\nWhat to do: .+`));
    }
  });

  it('answers every tool of the table through its descriptor with the one result shape', async () => {
    const inputs: Record<string, unknown> = {
      list_skills: {},
      find_skills: { query: 'say hello' },
      load: { names: ['demo'] },
      list_docs: {},
      select_docs: { docs: ['notes.md'] },
      read: { path: 'notes.md' },
      run_script: { script: 'scripts/hello.py' },
      unload: { all: true },
      runSkill: { action: 'list' },
      updateSkill: { action: 'metadata', skill: 'demo', fields: { description: 'Says hello. Use when greeting someone.' }, dryRun: true },
    };
    for (const id of ['list_skills', 'find_skills', 'load', 'list_docs', 'select_docs', 'read', 'run_script', 'unload', 'runSkill', 'updateSkill']) {
      const t = findTool(id)!;
      const r = await t.invoke(ctx, inputs[id]);
      assert.ok(r.ok, `${t.name}: ${JSON.stringify(!r.ok && r.error)}`);
      assert.equal(r.tool, t.name);
      // The one shape, and nothing beside it (the compiler refuses a result without `ok`, not one with an extra field).
      assert.deepEqual(Object.keys(r).filter((k) => !['ok', 'tool', 'result', 'skills'].includes(k)), [], `${t.name} answers with fields the one result shape does not have`);
      assert.ok(toolResultText(r).length > 2);
    }
    assert.equal(TOOLS.length, Object.keys(inputs).length, 'a tool of the table is not exercised here');
    const listed = await call('list_skills', {});
    assert.match(toolResultText(listed), /<available_skills>[\s\S]*demo/);
    assert.ok(fs.existsSync(path.join(tmp.dir, 'state', 'audit.jsonl')), 'calls are audited');
  });
});
