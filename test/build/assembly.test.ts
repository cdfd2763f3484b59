// One assembly of the core per window (the extension) and per process (each CLI command, the MCP server), issue 23:
// a scan of src/ and server/ counts the calls of createAgentSkills per front end, and checks that no front end builds
// the core's parts itself (registry, runner, runtime, catalog) instead of asking the factory. Nothing reaches into the
// assembly either: its returned object hands out no part (checked on a real one, and by the compiler through the type),
// and no front end reads a part's name off it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createAgentSkills, type AgentSkills } from '../../src/core/agentSkills';
import { AuditLog } from '../../src/core/audit/auditLog';
import { SessionStore } from '../../src/core/runtime/sessionStore';
import { REPO, sourceFiles, withoutComments } from '../support/sourceFiles';
import { makeTempDir } from '../support/tempDir';

/** Calls of `pattern` per file (relative path → count), comments left out. */
function calls(pattern: RegExp, dirs: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of dirs.flatMap((d) => sourceFiles(d))) {
    const code = withoutComments(fs.readFileSync(f, 'utf8'));
    const n = [...code.matchAll(new RegExp(pattern.source, 'g'))].length;
    if (n) out.set(path.relative(REPO, f), n);
  }
  return out;
}

const FACTORY = /\bcreateAgentSkills\(/;

/** A front end naming the runtime's type or importing its file, instead of the facade (runtime/skillTools.ts). */
const RUNTIME_TYPE = /\bSkillsRuntime\b|runtime\/skillsRuntime['"]/;

/** The parts the factory wires and keeps: the first names were fields of the assembly before it answered for them. */
const PARTS = ['registry', 'runner', 'runtime', 'source', 'audit', 'readers', 'openCatalog'] as const;
// The compiler's half: a field named after a part on AgentSkills makes this type `true` and the line fail to compile.
type LeakedPart = Extract<keyof AgentSkills, (typeof PARTS)[number]>;
const noPartInTheType: [LeakedPart] extends [never] ? true : LeakedPart = true;

/** A read of a part's name off the assembly: `core.registry`, `this.assembled.runtime`, `createAgentSkills({...}).runner`. */
const REACH = new RegExp(`(?:\\b(?:core|assembled|agentSkills)|createAgentSkills\\([^;]*?\\))\\??\\.(?:${PARTS.join('|')})\\b`);

describe('one assembly of the core per window and per process', () => {
  it('the extension calls createAgentSkills once (the window core), the MCP server once, each CLI command at most once, the language server never', () => {
    const found = calls(FACTORY, ['src/extension', 'src/cli', 'server']);
    const inExtension = [...found].filter(([f]) => f.startsWith(path.join('src', 'extension')));
    assert.deepEqual(inExtension, [[path.join('src', 'extension', 'service', 'windowCore.ts'), 1]]);
    const inMcp = [...found].filter(([f]) => f.startsWith(path.join('src', 'cli', 'mcp')));
    assert.deepEqual(inMcp, [[path.join('src', 'cli', 'mcp', 'mcpBackend.ts'), 1]]);
    for (const [f, n] of found) assert.ok(n === 1, `${f} assembles the core ${n} times: one process runs one command, which asks the factory once`);
    assert.ok(![...found.keys()].some((f) => f.startsWith('server')), 'the language server does not assemble the runtime');
  });

  it('no front end builds the parts itself: only the factory creates the registry, runner, runtime and catalog', () => {
    const parts = /\b(?:createSkillRegistry|createScriptRunner|createSkillsRuntime)\(|\bSkillCatalog\.open\(/;
    assert.deepEqual([...calls(parts, ['src/extension', 'src/cli', 'server']).keys()], []);
  });

  it('the assembly hands out no part: no field holds the registry, runner, runtime or source, whatever was built', async () => {
    assert.equal(noPartInTheType, true);
    const tmp = makeTempDir('assembly-parts-');
    try {
      const core = createAgentSkills({ stateDir: path.join(tmp.dir, 'state'), roots: [{ path: path.join(tmp.dir, 'skills'), scope: 'user' }], runner: { sandbox: 'off' }, runtime: { audit: false } });
      await core.refresh();
      const runtime = core.tools();
      await core.sandboxStatus();
      const fields = Object.keys(core);
      assert.deepEqual(fields.filter((k) => (PARTS as readonly string[]).includes(k)), []);
      // No field, under any name, is the runtime or one of its parts: the surfaces get them only through the methods.
      const values = fields.map((k) => (core as unknown as Record<string, unknown>)[k]);
      assert.ok(!values.includes(runtime), 'a field holds the runtime');
      assert.ok(!values.includes(runtime.sessions), 'a field holds the session store');
      await core.dispose();
    } finally {
      tmp.cleanup();
    }
  });

  it('tools() is a facade, not the runtime: no field of it is the runtime, its skill source, its audit log or its session store', async () => {
    const tmp = makeTempDir('assembly-tools-');
    try {
      const core = createAgentSkills({ stateDir: path.join(tmp.dir, 'state'), roots: [{ path: path.join(tmp.dir, 'skills'), scope: 'user' }], runner: { sandbox: 'off' } });
      await core.refresh();
      const tools = core.tools();
      assert.equal(core.tools(), tools, 'one facade until reconfigure');
      const fields = Object.keys(tools);
      assert.deepEqual(fields.filter((k) => (PARTS as readonly string[]).includes(k) && k !== 'audit'), []);
      // Every field is a bound call, a plain value or one of the two narrow views: never an object of the runtime's.
      for (const k of fields) {
        const v = (tools as unknown as Record<string, unknown>)[k];
        if (typeof v !== 'object' || v === null || k === 'toolNames') continue;
        assert.ok(!(v instanceof SessionStore) && !(v instanceof AuditLog), `tools().${k} is a part of the runtime`);
        assert.ok(Object.values(v).every((m) => typeof m === 'function' || Array.isArray(m)), `tools().${k} holds more than calls`);
      }
      assert.ok(tools.audit, 'audit is on by default');
      assert.ok(!('file' in tools.audit), 'the audit sink is not the audit log');
      assert.ok(!('source' in tools), 'the skill source stays inside');
      await core.reconfigure({ runner: { sandbox: 'off' } });
      assert.notEqual(core.tools(), tools, 'a new facade over the new runtime');
      await core.dispose();
    } finally {
      tmp.cleanup();
    }
  });

  it('no front end names the runtime (SkillsRuntime, runtime/skillsRuntime): they use the facade tools() returns', () => {
    assert.deepEqual([...calls(RUNTIME_TYPE, ['src/extension', 'src/cli', 'server'])], []);
    for (const reach of ["import type { SkillsRuntime } from '../../core/runtime';", "import { createSkillsRuntime } from '../core/runtime/skillsRuntime';"]) assert.match(reach, RUNTIME_TYPE, reach);
    assert.doesNotMatch("import type { SkillTools } from '../../core/runtime/skillTools';", RUNTIME_TYPE);
  });

  it('no front end reads a part off the assembly (core.registry, core.runtime, ...): it asks the assembly', () => {
    assert.deepEqual([...calls(REACH, ['src/extension', 'src/cli', 'server'])], []);
  });

  it('would see a front end reaching into the assembly (the scan is not vacuous)', () => {
    for (const reach of ['await core.registry.refresh();', 'const r = this.assembled.runner;', 'createAgentSkills({ stateDir: dir }).runtime.sessions', 'core?.openCatalog()']) assert.match(reach, REACH, reach);
    for (const fine of ['await core.refresh();', 'catalog.registry.all()', 'core.tools().sessions']) assert.doesNotMatch(fine, REACH, fine);
  });

  it('would see a second assembly (the scan is not vacuous)', () => {
    const text = 'const a = createAgentSkills({});\n// createAgentSkills( in a comment\nconst b = createAgentSkills({});';
    assert.equal([...text.replace(/^\s*\/\/.*$/gm, '').matchAll(new RegExp(FACTORY.source, 'g'))].length, 2);
  });
});
