// The one call path (issue 23.2): every tool is audited the same whichever front end calls it, exactly once. A real
// runtime with its audit file in a temp folder, the real catalog; list_skills and find_skills (which do not audit
// themselves) and a runtime tool (which does) called as VS Code and as MCP would call them.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { readAuditFile } from '../../../src/core/audit/auditLog';
import { SkillCatalog } from '../../../src/core/catalog';
import { createSkillsRuntime, skillToolsOf, type SkillsRuntime } from '../../../src/core/runtime';
import { callTool, findTool, type ToolCallContext, type ToolFrontEnd } from '../../../src/core/toolTable';
import { makeTempDir } from '../../support/tempDir';
import { writeSkill } from '../runtime/runtimeSupport';

describe('tools: one call path audits every tool once, on every surface', function () {
  this.timeout(60000);
  let tmp: { dir: string; cleanup: () => void };
  let runtime: SkillsRuntime;
  let catalog: SkillCatalog;

  beforeEach(async () => {
    tmp = makeTempDir('call-tool-');
    const skills = path.join(tmp.dir, 'skills');
    writeSkill(skills, 'demo', { files: { 'notes.md': '# Notes\n' } });
    catalog = await SkillCatalog.open({ roots: [{ path: skills, scope: 'workspace', source: 'test' }], stateDir: path.join(tmp.dir, 'catalog') });
    runtime = createSkillsRuntime({ source: catalog.skillSource(), stateDir: path.join(tmp.dir, 'state') });
    await runtime.openSession('chat');
  });

  afterEach(() => tmp.cleanup());

  const ctx = (surface: ToolFrontEnd): ToolCallContext => ({ sessionId: 'chat', surface, services: { runtime: async () => skillToolsOf(runtime), catalog: async () => catalog } });

  async function auditLines(): Promise<string[]> {
    await runtime.flush();
    return (await readAuditFile(path.join(tmp.dir, 'state', 'audit.jsonl'))).map((e) => `${e.session}:${e.action}:${e.outcome}`);
  }

  it('writes the same lines for the same calls from VS Code and from MCP, refusals with their code', async () => {
    const calls: [string, unknown][] = [
      ['list_skills', {}],
      ['find_skills', { query: 'demo notes' }],
      ['find_skills', { query: '' }],
      ['load_skills', { names: ['demo'] }],
      ['runSkill', { action: 'list' }],
    ];
    const bySurface: string[][] = [];
    for (const surface of ['vscode', 'mcp'] as const) {
      const before = (await auditLines()).length;
      for (const [name, input] of calls) await callTool(findTool(name)!, ctx(surface), input);
      bySurface.push((await auditLines()).slice(before));
    }
    assert.deepEqual(bySurface[0], bySurface[1]);
    // One line per call (load touches one skill: one line), never two for a tool that audits itself.
    assert.deepEqual(bySurface[0], ['chat:list_skills:ok', 'chat:find_skills:ok', 'chat:find_skills:error:invalid_input', 'chat:load:ok', 'chat:runSkill.list:ok']);
  });
});
