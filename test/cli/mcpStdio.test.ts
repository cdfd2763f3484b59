import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { readAuditFile } from '../../src/core/audit';
import { inputJsonSchema } from '../../src/core/runtime/inputJsonSchema';
import { TOOLS } from '../../src/core/toolTable/toolTable';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { DirectoryResult, serverArgs, sha256, SkillsGetResult, SkillsListResult, stdioClient, toolText, waitFor, writeFixtureSkills } from './mcpSupport';

describe('agent-skills mcp over stdio (SDK Client against dist/cli.js)', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  let skills: string;
  let state: string;
  const open: Client[] = [];
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => {
    tmp = makeTempDir('mcp-stdio-');
    skills = path.join(tmp.dir, 'skills');
    state = path.join(tmp.dir, 'state');
    writeFixtureSkills(skills);
  });
  afterEach(async () => {
    for (const c of open.splice(0)) await c.close();
    tmp.cleanup();
  });
  const connect = async (extra: string[] = []) => {
    const c = await stdioClient(serverArgs(skills, state, extra));
    open.push(c.client);
    return c;
  };

  it('declares the skills extension, gives instructions with <available_skills>, and lists the manifest tools without run_skill_script', async () => {
    const { client } = await connect();
    const caps = client.getServerCapabilities() as Record<string, unknown> & { extensions?: Record<string, { directoryRead?: boolean }> };
    assert.deepEqual(caps.extensions?.['io.modelcontextprotocol/skills'], { directoryRead: true });
    assert.ok(caps.resources && caps.prompts && caps.tools);
    const instructions = client.getInstructions() ?? '';
    assert.match(instructions, /<available_skills>[\s\S]*<name>alpha<\/name>[\s\S]*<\/available_skills>/);
    assert.match(instructions, /load_skills/, 'the loading rule names the load tool');
    assert.doesNotMatch(instructions, /run_skill_script runs/, 'no guidance for a script tool that is not offered');
    assert.match(instructions, /read_skill_file fetches/);
    const { tools } = await client.listTools();
    const table = TOOLS.filter((t) => t.family === 'standard' && t.name !== 'run_skill_script');
    assert.deepEqual(tools.map((t) => t.name), table.map((t) => t.name));
    for (const t of tools) {
      const d = table.find((x) => x.name === t.name)!;
      assert.equal(t.description, d.description, `${t.name}: the tool table's description`);
      assert.deepEqual(t.inputSchema, inputJsonSchema(d.input), `${t.name}: the tool table's input schema`);
      assert.equal(t.title, d.title);
    }
  });

  it('offers runSkill/updateSkill with --tool-surface minimal, both families with both, and no updateSkill with --read-only', async () => {
    const names = async (extra: string[]) => (await (await connect(extra)).client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(await names(['--tool-surface', 'minimal']), ['runSkill', 'updateSkill']);
    assert.deepEqual(await names(['--tool-surface', 'minimal', '--read-only']), ['runSkill']);
    const both = await names(['--tool-surface', 'both', '--allow-scripts', '--sandbox', 'off']);
    assert.deepEqual(both, TOOLS.map((t) => t.name));
  });

  it('--no-tools (what the extension offers VS Code\'s MCP client): no tools capability, skills as resources and prompts, rules that say to read skill://', async () => {
    const { client } = await connect(['--no-tools']);
    const caps = client.getServerCapabilities() ?? {};
    assert.equal(caps.tools, undefined, 'no tools capability: an agent that also has our Language Model Tools sees each tool once');
    assert.ok(caps.resources && caps.prompts);
    await assert.rejects(client.listTools(), 'tools/list is not answered');
    const instructions = client.getInstructions() ?? '';
    assert.match(instructions, /<available_skills>[\s\S]*<name>alpha<\/name>/);
    assert.match(instructions, /read the resource skill:\/\/<name>\/SKILL\.md/);
    assert.doesNotMatch(instructions, /load_skills|read_skill_file|run_skill_script/, 'the rules name no tool the server does not offer');
    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === 'skill://alpha/SKILL.md'));
    assert.deepEqual((await client.listPrompts()).prompts.map((p) => p.name), ['alpha', 'beta']);
    const usage = spawnSync(process.execPath, serverArgs(skills, state, ['--no-tools', '--allow-scripts']), { encoding: 'utf8' });
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /--no-tools offers no tool/);
  });

  it('lists every skill file as skill:// with size and digest, and reads them back with matching bytes', async () => {
    const { client } = await connect();
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri).sort();
    assert.deepEqual(uris, [
      'skill://alpha/SKILL.md', 'skill://alpha/assets/logo.bin', 'skill://alpha/references/guide.md', 'skill://alpha/scripts/echo.sh',
      'skill://beta/SKILL.md', 'skill://gamma/SKILL.md',
    ]);
    for (const r of resources) {
      const rel = r.uri.replace(/^skill:\/\/[^/]+\//, '');
      const skill = /^skill:\/\/([^/]+)/.exec(r.uri)![1];
      const bytes = fs.readFileSync(path.join(skills, skill, rel));
      assert.equal(r.size, bytes.length, `${r.uri} size`);
      assert.equal(r._meta?.['io.modelcontextprotocol.skills/digest'], sha256(bytes), `${r.uri} digest`);
      const read = (await client.readResource({ uri: r.uri })).contents[0] as { text?: string; blob?: string; mimeType?: string };
      const got = read.text !== undefined ? Buffer.from(read.text, 'utf8') : Buffer.from(read.blob!, 'base64');
      assert.equal(sha256(got), sha256(bytes), `${r.uri} content matches its digest`);
    }
    const skillMd = resources.find((r) => r.uri === 'skill://alpha/SKILL.md')!;
    assert.equal(skillMd.name, 'alpha');
    assert.equal(skillMd.mimeType, 'text/markdown');
    assert.match(skillMd.description ?? '', /alpha things/);
    const logo = (await client.readResource({ uri: 'skill://alpha/assets/logo.bin' })).contents[0] as { blob?: string };
    assert.ok(logo.blob, 'binary files come as blobs');
  });

  it('answers skills/list, skills/get and resources/directory/read as the extension defines them', async () => {
    const { client } = await connect();
    const list = await client.request({ method: 'skills/list', params: {} }, SkillsListResult);
    assert.deepEqual(list.skills.map((s) => s.uri), ['skill://alpha/SKILL.md', 'skill://beta/SKILL.md', 'skill://gamma/SKILL.md']);
    const alpha = list.skills[0];
    assert.equal(alpha.frontmatter.name, 'alpha');
    assert.equal(alpha.resources.length, 4, 'complete: every file of the skill');
    assert.equal(alpha.resources.find((r) => r.uri === alpha.uri)?.digest, sha256(fs.readFileSync(path.join(skills, 'alpha/SKILL.md'))));
    const got = await client.request({ method: 'skills/get', params: { uri: 'skill://beta/SKILL.md' } }, SkillsGetResult);
    assert.equal(got.skill.frontmatter['argument-hint'], '<file> <mode>');
    await assert.rejects(client.request({ method: 'skills/get', params: { uri: 'skill://nope/SKILL.md' } }, SkillsGetResult), (e: { code?: number }) => e.code === -32602);
    const root = await client.request({ method: 'resources/directory/read', params: { uri: 'skill://alpha' } }, DirectoryResult);
    assert.deepEqual(root.resources.map((r) => `${r.name}:${r.mimeType}`), ['alpha:text/markdown', 'assets:inode/directory', 'references:inode/directory', 'scripts:inode/directory']);
    const refs = await client.request({ method: 'resources/directory/read', params: { uri: 'skill://alpha/references' } }, DirectoryResult);
    assert.deepEqual(refs.resources.map((r) => r.uri), ['skill://alpha/references/guide.md']);
    await assert.rejects(client.request({ method: 'resources/directory/read', params: { uri: 'skill://alpha/SKILL.md' } }, DirectoryResult), (e: { code?: number }) => e.code === -32602);
  });

  it('refuses skill:// URIs that escape the skill, plain or percent-encoded, and links out of it', async () => {
    fs.symlinkSync('/etc/passwd', path.join(skills, 'alpha', 'references', 'passwd.md'));
    fs.writeFileSync(path.join(tmp.dir, 'secret.txt'), 'top secret');
    const { client } = await connect();
    const attacks = [
      'skill://alpha/../../etc/passwd',
      'skill://alpha/%2e%2e/%2e%2e/etc/passwd',
      'skill://alpha/..%2f..%2fsecret.txt',
      'skill://alpha/references/..%5c..%5csecret.txt',
      'skill://alpha/./SKILL.md',
      'skill://alpha//etc/passwd',
      'skill://%2e%2e/secret.txt',
      'skill://alpha/references/passwd.md',
      'skill://alpha/%252e%252e/secret.txt',
      'skill://alpha/SKILL.md%00.txt',
      'file:///etc/passwd',
    ];
    // A URI that is not a skill file URI is invalid params; a well-formed one that names no served file is
    // "resource not found" (-32002 on 2025-11-25). Either way nothing outside the skill is read.
    const notFound = new Set(['skill://alpha/references/passwd.md', 'skill://alpha/%252e%252e/secret.txt']);
    for (const uri of attacks) {
      await assert.rejects(client.readResource({ uri }), (e: { code?: number; message?: string }) => {
        assert.equal(e.code, notFound.has(uri) ? -32002 : -32602, `${uri}: ${e.message}`);
        assert.doesNotMatch(e.message ?? '', /root:|top secret/);
        return true;
      }, uri);
    }
    const { resources } = await client.listResources();
    assert.ok(!resources.some((r) => r.uri.includes('passwd')), 'a link out of the skill is not listed');
  });

  it('load_skills returns the instructions; run_skill_script is refused without --allow-scripts and says why; calls are audited with the MCP session', async () => {
    const { client } = await connect();
    const load = await client.callTool({ name: 'load_skills', arguments: { names: ['alpha'] } });
    assert.equal(load.isError, false);
    assert.match(toolText(load), /Read references\/guide\.md, then run scripts\/echo\.sh/);
    const bad = await client.callTool({ name: 'load_skills', arguments: { names: [] } });
    assert.equal(bad.isError, true);
    assert.match(toolText(bad), /names/);
    // A tool the server does not offer is a protocol error (-32602), not a tool result; the message says why.
    await assert.rejects(client.callTool({ name: 'run_skill_script', arguments: { skill: 'alpha', script: 'scripts/echo.sh' } }), (e: { code?: number; message?: string }) => e.code === -32602 && /--allow-scripts/.test(e.message ?? ''));
    await client.readResource({ uri: 'skill://beta/SKILL.md' });
    await client.close();
    const audit = await waitFor('the audit lines', async () => {
      const lines = fs.existsSync(path.join(state, 'audit.jsonl')) ? await readAuditFile(path.join(state, 'audit.jsonl')) : [];
      return lines.some((l) => l.action === 'mcp:resources/read') ? lines : undefined;
    });
    const sessions = new Set(audit.map((a) => a.session));
    assert.equal(sessions.size, 1, `one MCP session: ${[...sessions].join(', ')}`);
    assert.match([...sessions][0], /^mcp-stdio-/);
    assert.deepEqual(audit.map((a) => `${a.action}:${a.outcome}`), ['load:ok', 'load:error:invalid_input', 'mcp:tools/call run_skill_script:error:-32602', 'mcp:resources/read:ok']);
  });

  it('runs a script with --allow-scripts (sandbox off) and returns what the model sees', async () => {
    const { client } = await connect(['--allow-scripts', '--sandbox', 'off']);
    await client.callTool({ name: 'load_skills', arguments: { names: ['alpha'] } });
    const run = await client.callTool({ name: 'run_skill_script', arguments: { skill: 'alpha', script: 'scripts/echo.sh', args: ['hi'] } });
    assert.equal(run.isError, false, toolText(run));
    const result = JSON.parse(toolText(run));
    assert.equal(result.exit_code, 0);
    assert.equal(result.stdout, 'alpha says: hi\n');
    assert.equal(result.phases, undefined, 'host-only fields stay out of the model text');
  });

  it('serves user-invocable skills as prompts with $ARGUMENTS and $N substituted', async () => {
    const { client } = await connect();
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name), ['alpha', 'beta'], 'gamma says user-invocable: false');
    assert.equal(prompts[1].arguments?.[0].description, '<file> <mode>');
    const got = await client.getPrompt({ name: 'beta', arguments: { arguments: 'main.ts strict' } });
    const text = (got.messages[0].content as { text: string }).text;
    assert.match(text, /Review main\.ts in mode strict\. All: main\.ts strict\./);
    await assert.rejects(client.getPrompt({ name: 'gamma' }), (e: { code?: number }) => e.code === -32602);
  });

  it('notifies list changes and subscribed resource updates when skills change on disk', async () => {
    const { client } = await connect();
    let listChanged = 0;
    const updated: string[] = [];
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    await client.subscribeResource({ uri: 'skill://alpha/SKILL.md' });
    fs.appendFileSync(path.join(skills, 'alpha', 'references', 'guide.md'), 'Step two.\n');
    await waitFor('resources/updated for alpha', () => (updated.includes('skill://alpha/SKILL.md') ? true : undefined));
    const guide = (await client.readResource({ uri: 'skill://alpha/references/guide.md' })).contents[0] as { text: string; _meta?: Record<string, unknown> };
    assert.match(guide.text, /Step two/);
    const before = listChanged;
    fs.mkdirSync(path.join(skills, 'delta'));
    fs.writeFileSync(path.join(skills, 'delta', 'SKILL.md'), '---\nname: delta\ndescription: Delta things. Use for delta.\n---\nDelta.\n');
    await waitFor('resources/list_changed for delta', () => (listChanged > before ? true : undefined));
    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === 'skill://delta/SKILL.md'));
  });

  it('bounds the subscriptions one session may hold', async () => {
    const { client } = await connect();
    // In batches: a thousand writes at once would pile 'drain' listeners on the client's pipe.
    for (let b = 0; b < 1000; b += 8) await Promise.all(Array.from({ length: 8 }, (_, i) => client.subscribeResource({ uri: `skill://alpha/x${b + i}` })));
    await assert.rejects(client.subscribeResource({ uri: 'skill://alpha/one-too-many' }), (e: { code?: number; message?: string }) => e.code === -32602 && /1000 subscriptions/.test(e.message ?? ''));
    await client.unsubscribeResource({ uri: 'skill://alpha/x0' });
    await client.subscribeResource({ uri: 'skill://alpha/one-too-many' });
  });
});
