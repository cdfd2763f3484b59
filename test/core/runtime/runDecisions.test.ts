// Issue 23.4: each decision of a run_skill_script call is made once, each held by its own test. A test fails when
// its decision is removed (the refusal or the effect is gone) and when a second copy is added: for a decision that
// looks at the disk, a counting host (the real local disk behind a proxy that counts the calls on the paths of the
// run) sees the second look; for the others, a scan of src/ finds the one place that decides, and a second one.
// Real cores, real runners (sandbox off), real files in temp folders; nothing of ours is replaced.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createAgentSkills, type AgentSkills } from '../../../src/core/agentSkills';
import { callMcpTool, mcpTools, type McpToolServices } from '../../../src/cli/mcp/toolAdapter';
import { localDisk } from '../../../src/core/host/localDisk';
import type { SyncWritableHost } from '../../../src/core/host/fileWrites';
import { mcpCacheDir } from '../../../src/core/mcp/connectMcpServers';
import { pluginSkillRoots, PLUGIN_SCHEMA_1_0, readPlugins } from '../../../src/core/plugins';
import { guardedExecutor } from '../../../src/core/runtime/guardedExecutor';
import { lateSource } from '../../../src/core/runtime/lateSource';
import { skillSourceOf } from '../../../src/core/runtime/registrySource';
import type { SkillSource } from '../../../src/core/runtime/runtimeTypes';
import { SkillContentCache } from '../../../src/core/runtime/skillContent';
import type { ToolResult } from '../../../src/core/tools';
import { RUNTIME_TOOLS } from '../../../src/core/tools/toolNames';
import { callTool, findTool } from '../../../src/core/toolTable';
import { readAuditFile } from '../../../src/core/audit';
import { sourceFiles, withoutComments } from '../../support/sourceFiles';
import { makeTempDir } from '../../support/tempDir';
import { writeSkill } from './runtimeSupport';

/** The places in src/ (comments left out) where `pattern` stands, as `file:count`. */
function placesIn(pattern: RegExp, dirs = ['src', 'server']): string[] {
  return dirs
    .flatMap((d) => sourceFiles(d))
    .flatMap((f) => {
      const code = withoutComments(fs.readFileSync(f, 'utf8'));
      const n = [...code.matchAll(new RegExp(pattern.source, 'g'))].length;
      return n ? [`${path.relative(path.resolve(__dirname, '../../..'), f)}:${n}`] : [];
    });
}

/** The local disk behind a proxy that counts, per method, the calls whose first argument is `watched()`'s path. */
function countingHost(): { host: SyncWritableHost; count(method: string, p: string): number; reset(): void } {
  let calls: string[] = [];
  const host = new Proxy(localDisk, {
    get(target, key) {
      const v = (target as unknown as Record<string | symbol, unknown>)[key];
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (typeof args[0] === 'string') calls.push(`${String(key)} ${path.resolve(args[0])}`);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { host, count: (method, p) => calls.filter((c) => c === `${method} ${path.resolve(p)}`).length, reset: () => (calls = []) };
}

const refusal = (r: ToolResult) => (r.ok ? assert.fail(`accepted: ${JSON.stringify(r.result).slice(0, 300)}`) : r.error);
const stdout = (r: ToolResult) => (r.ok ? String((r.result as { stdout: string }).stdout) : assert.fail(JSON.stringify(r.error)));

describe('run_skill_script: each decision once (issue 23.4)', function () {
  this.timeout(120_000);
  let tmp: ReturnType<typeof makeTempDir>;
  let skillDir: string;
  let overlay: string;
  let pluginDir: string;
  let disk: ReturnType<typeof countingHost>;
  let runs: number;
  let core: AgentSkills;
  const run = (input: Record<string, unknown>) => core.tools().invoke('run_script', input, { sessionId: 's' });
  const read = (p: string) => core.tools().invoke('read', { skill: 'tool', path: p }, { sessionId: 's' });

  before(async () => {
    tmp = makeTempDir('run-decisions-');
    const skills = path.join(tmp.dir, 'skills');
    skillDir = writeSkill(skills, 'tool', { files: { 'scripts/ok.sh': '#!/bin/sh\necho ran from the skill\n', 'scripts/edited.sh': '#!/bin/sh\necho old\n', 'scripts/sub/inner.txt': 'x\n' } });
    fs.symlinkSync('/etc/hostname', path.join(skillDir, 'scripts', 'link.sh'));
    execFileSync('mkfifo', [path.join(skillDir, 'scripts', 'pipe.sh')]);
    fs.writeFileSync(path.join(tmp.dir, 'secret.txt'), 'secret\n');
    // The overlay holds a folder where the skill has scripts/ok.sh, and a newer scripts/edited.sh.
    overlay = path.join(tmp.dir, 'overlay');
    fs.mkdirSync(path.join(overlay, 'scripts', 'ok.sh'), { recursive: true });
    fs.writeFileSync(path.join(overlay, 'scripts', 'edited.sh'), '#!/bin/sh\necho new from the overlay\n');
    pluginDir = path.join(tmp.dir, 'plugins', 'ops');
    writeSkill(path.join(pluginDir, 'skills'), 'deploy', { files: { 'scripts/where.sh': '#!/bin/sh\necho "root=$PLUGIN_ROOT"\n' } });
    fs.writeFileSync(path.join(pluginDir, 'plugin.json'), JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name: 'ops', version: '1.0.0' }));
    // A skill in the MCP cache folder: what a connected server's skill is fetched into.
    writeSkill(path.join(mcpCacheDir(path.join(tmp.dir, 'state')), 'far'), 'remote', { files: { 'scripts/x.sh': '#!/bin/sh\necho ran\n' } });

    disk = countingHost();
    runs = 0;
    let registrySource: SkillSource | undefined;
    core = createAgentSkills({
      host: disk.host,
      stateDir: path.join(tmp.dir, 'state'),
      roots: [{ path: skills, scope: 'workspace' }, { path: path.join(mcpCacheDir(path.join(tmp.dir, 'state')), 'far'), scope: 'user' }, ...pluginSkillRoots(readPlugins([pluginDir]))],
      runner: { sandbox: 'off' },
      executor: (runner) =>
        guardedExecutor(runner, (req, attempt) => {
          if (attempt === 'run') runs++;
          return req;
        }),
      // The registry's skills, with an overlay for the skill 'tool' (as the catalog keeps one for an edited plugin skill).
      source: lateSource(() => ({ ...registrySource!, overlayDir: (id: string) => (id.endsWith(':tool') ? overlay : undefined) })),
    });
    await core.refresh();
    registrySource = skillSourceOf(core.skills as never);
    await core.tools().openSession('s');
    const loaded = await core.tools().invoke('load', { names: ['tool', 'deploy', 'remote'] }, { sessionId: 's' });
    assert.ok(loaded.ok, JSON.stringify(loaded));
  });
  after(async () => {
    await core?.dispose();
    tmp?.cleanup();
  });

  it('the script is inside the skill: the runner alone resolves its path (one realpath per call), and words refusals as read does', async () => {
    for (const p of ['../secret.txt', '/etc/passwd', 'scripts/link.sh', 'scripts/missing.sh']) {
      const before = runs;
      const viaRun = refusal(await run({ skill: 'tool', script: p }));
      assert.equal(runs, before + 1, `${p}: the run reached the runner (the runtime did not decide first)`);
      const viaRead = refusal(await read(p));
      assert.deepEqual({ code: viaRun.code, message: viaRun.message }, { code: viaRead.code, message: viaRead.message }, p);
    }
    // The first run copies the skill into its snapshot, which checks every file it copies (links raced in after the
    // check): a separate decision, about the copy. From the second run on, the snapshot is reused.
    assert.match(stdout(await run({ skill: 'tool', script: 'scripts/ok.sh' })), /ran from the skill/);
    disk.reset();
    assert.match(stdout(await run({ skill: 'tool', script: 'scripts/ok.sh' })), /ran from the skill/);
    assert.equal(disk.count('realPath', path.join(skillDir, 'scripts', 'ok.sh')), 1, 'the script path was resolved once');
  });

  it('the script is a regular file: asked of the host once per call; a folder and a pipe are refused', async () => {
    const folder = refusal(await run({ skill: 'tool', script: 'scripts/sub' }));
    assert.equal(folder.code, 'not_found');
    assert.match(folder.message, /'scripts\/sub' of skill 'tool' is a folder, not a script/);
    const pipe = refusal(await run({ skill: 'tool', script: 'scripts/pipe.sh' }));
    assert.equal(pipe.code, 'path_refused');
    disk.reset();
    await run({ skill: 'tool', script: 'scripts/ok.sh' });
    assert.equal(disk.count('kind', path.join(skillDir, 'scripts', 'ok.sh')), 1, 'the script kind was asked once');
  });

  it('overlay or skill folder: one rule (overlayWins), asked once per call; a folder in the overlay does not hide the script', async () => {
    disk.reset();
    assert.match(stdout(await run({ skill: 'tool', script: 'scripts/ok.sh' })), /ran from the skill/, 'the overlay holds a folder there: the skill folder wins');
    assert.equal(disk.count('kind', path.join(overlay, 'scripts', 'ok.sh')), 1, 'the overlay entry was asked once');
    assert.match(stdout(await run({ skill: 'tool', script: 'scripts/edited.sh' })), /new from the overlay/);
    // Reading agrees with running on both paths.
    assert.match(JSON.stringify(await read('scripts/edited.sh')), /new from the overlay/);
    assert.match(JSON.stringify(await read('scripts/ok.sh')), /ran from the skill/);
    // The one comparison of an overlay entry's kind is overlayWins; every reader and the runner call it.
    assert.deepEqual(placesIn(/kindInOverlay === 'file'|overlayWins\(/).sort(), ['src/core/exec/scriptPath.ts:1', 'src/core/exec/sourceTree.ts:1', 'src/core/paths/overlayRule.ts:2', 'src/core/runtime/effectiveFiles.ts:1']);
  });

  it('one of script and command, and a positive timeout: refused by the input schema alone, before the runner', async () => {
    const before = runs;
    for (const input of [{ skill: 'tool', script: 'scripts/ok.sh', command: 'ls' }, { skill: 'tool' }, { skill: 'tool', script: 'scripts/ok.sh', timeout_seconds: 0 }]) {
      const r = refusal(await run(input));
      assert.equal(r.code, 'invalid_input', JSON.stringify(input));
    }
    assert.match(refusal(await run({ skill: 'tool', command: 'ls', script: 'x' })).message, /Give exactly one of 'script' and 'command'/);
    assert.equal(runs, before, 'no malformed request reached the runner');
    // The schema is the one place: RunRequest's type holds the first for the runner, which asks neither again.
    assert.deepEqual(placesIn(/\bscript [!=]== undefined\) [!=]== \([\w.]*command [!=]== undefined/), ['src/core/runtime/runtimeToolInputs.ts:1']);
    // (The CLI's `run --timeout` parses its own flag, a usage error before any call: not this decision.)
    assert.deepEqual(placesIn(/!\(\s*[\w.]*[tT]imeout\w* > 0\)|[tT]imeout\w*: z\.number\(\)\.positive\(\)/, ['src/core', 'server']), ['src/core/runtime/runtimeToolInputs.ts:1']);
  });

  it('the skill folder exists: asked once per call (the runner), refused with reload advice when it is gone', async () => {
    disk.reset();
    await run({ skill: 'tool', script: 'scripts/ok.sh' });
    assert.equal(disk.count('kind', skillDir), 1, 'the skill folder was asked once');
    const gone = path.join(tmp.dir, 'gone');
    writeSkill(gone, 'brief');
    await core.refresh([...core.skills.snapshot().roots, { path: gone, scope: 'user' }]);
    assert.ok((await core.tools().invoke('load', { names: ['brief'], mode: 'add' }, { sessionId: 's' })).ok);
    fs.rmSync(path.join(gone, 'brief'), { recursive: true });
    const r = refusal(await run({ skill: 'brief', script: 'scripts/x.sh' }));
    assert.match(r.message, /is not a folder; reload the skill list/);
  });

  it('the owning plugin: the registry root of the skill folder, looked up in one run hook', async () => {
    assert.match(stdout(await run({ skill: 'deploy', script: 'scripts/where.sh' })), new RegExp(`root=${fs.realpathSync(pluginDir).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.deepEqual(placesIn(/\bpluginRunContext\(/), ['src/core/plugins/pluginRuns.ts:1', 'src/core/sourceReaders/agentPlugins.ts:1']);
  });

  it('an MCP-served skill is refused: by one run hook, before the runner', async () => {
    const before = runs;
    const r = refusal(await run({ skill: 'remote', script: 'scripts/x.sh' }));
    assert.equal(r.code, 'run_refused');
    assert.match(r.message, /MCP-served skills are instructions only/);
    assert.equal(runs, before, 'refused in front of the runner');
    assert.deepEqual(placesIn(/\brefuseMcpScripts\(/), ['src/core/mcp/mcpSkillSource.ts:1', 'src/core/sourceReaders/mcpServers.ts:1']);
    assert.deepEqual(placesIn(/instructions only, and their scripts are never run/), ['src/core/mcp/mcpSkillSource.ts:1']);
  });

  it('--allow-scripts: read once, where the MCP server assembles its core; the tools follow from runsScripts', () => {
    assert.deepEqual(placesIn(/\.allowScripts\b/, ['src/cli/mcp']), ['src/cli/mcp/mcpBackend.ts:2']);
    // What follows from it (the tools offered, the refusal naming the flag, asking the client before a run) reads the
    // core's answer, runtime.runsScripts, never a copy of the flag.
    const readers = placesIn(/\brunsScripts\b/, ['src/cli/mcp']);
    assert.ok(readers.includes('src/cli/mcp/toolAdapter.ts:2'), readers.join(', '));
    assert.deepEqual(placesIn(/\bruntime\.runsScripts\b/, ['src/cli/mcp']), readers);
  });

  it('an unknown tool: one protocol error (-32602), decided where MCP looks a tool up', async () => {
    const catalog = await core.catalog();
    const services: McpToolServices = { runtime: core.tools(), catalog, surface: 'standard', readOnly: false };
    await assert.rejects(callMcpTool(services, 'no_such_tool', {}, { sessionId: 's' }, new SkillContentCache(core.host)), (e: { code?: number; message: string }) => e.code === -32602 && /^Unknown tool: this server offers no tool 'no_such_tool'/.test(e.message));
    assert.deepEqual(placesIn(/Unknown tool/, ['src']), ['src/cli/mcp/toolAdapter.ts:2']);
  });

  it('tool names: public name to id in one table, and the answer names the public name', async () => {
    const catalog = await core.catalog();
    const services: McpToolServices = { runtime: core.tools(), catalog, surface: 'standard', readOnly: false };
    const name = RUNTIME_TOOLS.run_script.name;
    assert.equal(findTool(name)?.id, 'run_script');
    assert.ok(mcpTools(services).some((t) => t.name === name));
    const answer = await callMcpTool(services, name, { skill: 'tool', script: 'scripts/sub' }, { sessionId: 's' }, new SkillContentCache(core.host));
    assert.equal(answer.isError, true);
    assert.equal(answer.code, 'not_found', 'the code travels as a value');
    // Each public name is written once, in the names table.
    assert.deepEqual(placesIn(new RegExp(`['"\`]${name}['"\`]`)), ['src/core/tools/toolNames.ts:1']);
  });

  it("MCP's error code is the result's, never read back out of the rendered text", async () => {
    const catalog = await core.catalog();
    const services: McpToolServices = { runtime: core.tools(), catalog, surface: 'standard', readOnly: false };
    const answer = await callMcpTool(services, RUNTIME_TOOLS.run_script.name, { skill: 'tool', script: '../secret.txt' }, { sessionId: 's' }, new SkillContentCache(core.host));
    const direct = refusal(await run({ skill: 'tool', script: '../secret.txt' }));
    assert.equal(answer.code, direct.code);
    // No MCP file applies a regular expression to a tool's text to find its code.
    assert.deepEqual(placesIn(/\btext\b[^;\n]*\.match\(|\.exec\(\s*\w*[tT]ext\b/, ['src/cli/mcp']), []);
  });

  it('every surface audits a tool the same: list_skills through callTool writes one line whichever surface calls it', async () => {
    const list = findTool('list_skills')!;
    for (const surface of ['vscode', 'mcp', 'cli'] as const) {
      const r = await callTool(list, { sessionId: `audit-${surface}`, surface, services: { runtime: async () => core.tools() } }, {});
      assert.ok(r.ok);
    }
    await core.flush();
    const lines = (await readAuditFile(path.join(tmp.dir, 'state', 'audit.jsonl'))).filter((l) => l.action === 'list_skills');
    assert.deepEqual(lines.map((l) => l.session).sort(), ['audit-cli', 'audit-mcp', 'audit-vscode']);
    // The VS Code tool and the MCP adapter both call through callTool; a descriptor's invoke is called only there
    // (and for the runtime's own tools, which audit themselves, and for a preview on a scratch copy).
    assert.deepEqual(placesIn(/\bcallTool\(/, ['src/extension', 'src/cli']).sort(), ['src/cli/mcp/toolAdapter.ts:1', 'src/extension/tools/descriptorTool.ts:1']);
  });
});
