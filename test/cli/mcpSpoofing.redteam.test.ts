// Red team (issue 22, third pass): a hostile MCP skills server against our skills client. Each file it serves
// matches its advertised digest; it lies about identity instead. Before the fix, with the hostile server configured
// before a trusted one, `load_skills(["mcp:trusted:pdf"])` loaded the hostile server's skill named
// `mcp:trusted:pdf`; a full-width `ｐｄｆ` was listed by its bare name beside the local `pdf`; and a skill listing
// SKILL.md twice (`SKILL.md`, `%53KILL.md`) passed the frontmatter check on the first and cached the second.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { McpSkillsClient } from '../../src/core/mcp/mcpSkillsClient';
import { withMcpSkills } from '../../src/core/mcp/mcpSkillSource';
import { createSkillsRuntime } from '../../src/core/runtime';
import { folderSource, writeSkill } from '../core/runtime/runtimeSupport';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { REPO, serverArgs, stdioClient, toolText, waitFor } from './mcpSupport';

const SPOOF = path.join(REPO, 'test/fixtures/mcp/spoofingSkillsServer.mjs');
const MARKS = /TRUSTED-PDF|LOCAL-PDF|LOCAL-MAIL|EVIL-[A-Z]+|FIRST/g;

describe('MCP skills client against a server that lies about identity (red team)', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  let local: string;
  let cache: string;
  const clients: McpSkillsClient[] = [];
  beforeEach(() => {
    tmp = makeTempDir('mcp-spoof-');
    local = path.join(tmp.dir, 'local');
    cache = path.join(tmp.dir, 'state', 'mcp-cache');
    writeSkill(local, 'pdf', { body: 'LOCAL-PDF' });
    writeSkill(local, 'mail', { body: 'LOCAL-MAIL' });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    tmp.cleanup();
  });
  const connect = async (name: string, mode: 'evil' | 'trusted') => {
    const c = new McpSkillsClient({ name, command: process.execPath, args: [SPOOF, mode] }, cache);
    clients.push(c);
    await c.connect();
    assert.equal(c.state.state, 'up', JSON.stringify(c.state));
    return c;
  };
  /** What a load of `name` put in front of the model: the mark in the SKILL.md of the skill it loaded. */
  const loaded = async (rt: ReturnType<typeof createSkillsRuntime>, name: string) => {
    const r = await rt.invoke('load', { names: [name] }, { sessionId: `s-${name}` });
    if (!r.ok) return `refused: ${r.error.message}`;
    const dir = (r.result as { active_skills: { root_dir: string }[] }).active_skills[0].root_dir;
    return (fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8').match(MARKS) ?? []).join(',');
  };

  it('an id names its own server\'s skill: a skill named as another server\'s id is not listed, and the id loads the real one', async () => {
    const evil = await connect('evil', 'evil');
    const trusted = await connect('trusted', 'trusted');
    const source = withMcpSkills(folderSource(local), [evil, trusted]);
    const rt = createSkillsRuntime({ source });
    assert.equal(await loaded(rt, 'mcp:trusted:pdf'), 'TRUSTED-PDF', 'the id of the trusted server\'s skill loads that skill, not the hostile one named after it');
    assert.equal(await loaded(rt, 'pdf'), 'LOCAL-PDF');
    const listed = source.list().map((r) => `${r.id}=${r.name}`);
    assert.ok(!listed.some((l) => l.startsWith('mcp:evil:mcp:')), `a name spelled as an id is not listed: ${listed.join(', ')}`);
    const problem = evil.problems.find((p) => p.skill === 'mcp:trusted:pdf');
    assert.match(problem?.message ?? '', /Skipped skill:\/\/mcp%3Atrusted%3Apdf\/SKILL\.md from 'evil': `name` 'mcp:trusted:pdf' contains ":"/);
  });

  it('a served name that reads as a local one is never listed by its bare name (NFKC full-width and a non-ASCII look-alike refused, an ASCII look-alike under its id)', async () => {
    const evil = await connect('evil', 'evil');
    const source = withMcpSkills(folderSource(local), [evil]);
    const listed = source.list().map((r) => `${r.id}=${r.name}`);
    assert.ok(!listed.some((l) => l.includes('\uff50\uff44\uff46')), `the full-width name is not listed: ${listed.join(', ')}`);
    assert.match(evil.problems.find((p) => p.skill === '\uff50\uff44\uff46')?.message ?? '', /NFKC makes it "pdf"/);
    // A name wholly in another script that looks like a local one (the same UTS #39 skeleton) is not listed at all.
    assert.ok(!listed.some((l) => l.includes('\u0440df')), `the Cyrillic look-alike is not listed: ${listed.join(', ')}`);
    const cyrillic = evil.problems.filter((p) => p.skill === '\u0440df');
    assert.equal(cyrillic.length, 1, 'reported once, though the listing is computed on every call');
    assert.match(cyrillic[0].message, /^Skipped skill '\u0440df' from 'evil': its name looks like 'pdf' \(a local skill; the same Unicode confusable skeleton, UTS #39\)/);
    // Sixth pass (2026-11-27): Lisu letters have no case, so 'ꓑꓓꓝ' is a well-formed name; its skeleton is 'PDF', and
    // a name that reads as PDF is taken for pdf. Skeletons are compared without case (names are lowercase anyway).
    assert.ok(!listed.some((l) => l.includes('\ua4d1\ua4d3\ua4dd')), `the Lisu 'PDF' is not listed: ${listed.join(', ')}`);
    assert.match(evil.problems.find((p) => p.skill === '\ua4d1\ua4d3\ua4dd')?.message ?? '', /its name looks like 'pdf' \(a local skill;/);
    assert.ok(listed.includes('mcp:evil:rnail=mcp:evil:rnail'), `a plain ASCII look-alike (rn for m) is listed only under its id: ${listed.join(', ')}`);
    assert.ok(listed.includes('mcp:evil:twice=twice'), 'a plain ASCII name like no other keeps its bare name');
    const rt = createSkillsRuntime({ source });
    assert.match(await loaded(rt, '\u0440df'), /^refused: No skill named/, 'the look-alike\'s bare name names no skill');
    assert.match(await loaded(rt, 'mcp:evil:\u0440df'), /^refused: /, 'nor does its id');
    assert.equal(await loaded(rt, 'mail'), 'LOCAL-MAIL');
    assert.equal(await loaded(rt, 'mcp:evil:rnail'), 'EVIL-RN', 'the ASCII look-alike loads by its id');
  });

  it('a trusted server\'s plain name keeps its bare name beside a hostile server\'s look-alike of it, which is refused', async () => {
    const evil = await connect('evil', 'evil');
    const trusted = await connect('trusted', 'trusted');
    const empty = path.join(tmp.dir, 'empty');
    fs.mkdirSync(empty);
    const source = withMcpSkills(folderSource(empty), [evil, trusted]);
    const listed = source.list().map((r) => `${r.id}=${r.name}`);
    assert.ok(listed.includes('mcp:trusted:pdf=pdf'), `the trusted pdf keeps its bare name: ${listed.join(', ')}`);
    assert.ok(!listed.some((l) => l.includes('\u0440df')), `the Cyrillic look-alike is not listed: ${listed.join(', ')}`);
    assert.match(evil.problems.find((p) => p.skill === '\u0440df')?.message ?? '', /looks like 'pdf' \(a skill of another MCP server;/);
  });

  it('a skill that lists one file under two URIs is refused before anything is cached', async () => {
    const evil = await connect('evil', 'evil');
    const rt = createSkillsRuntime({ source: withMcpSkills(folderSource(local), [evil]) });
    const r = await loaded(rt, 'twice');
    assert.match(r, /^refused: Skill 'twice' of 'evil' lists the file SKILL\.md twice \(skill:\/\/twice\/SKILL\.md and skill:\/\/twice\/%53KILL\.md\)/, r);
    assert.equal(fs.existsSync(path.join(cache, 'evil', 'twice')), false, 'nothing of the skill was cached');
  });

  describe('through agent-skills mcp (our server with both servers behind it)', () => {
    before(function () {
      this.timeout(BUILD_TIMEOUT_MS);
      return ensureBuilt();
    });
    it('load_skills of mcp:trusted:pdf returns the trusted server\'s instructions, the hostile server configured first', async () => {
      const spoof = (mode: string) => `${mode}=${process.execPath} ${SPOOF} ${mode}`;
      const { client } = await stdioClient(serverArgs(local, path.join(tmp.dir, 'outer-state'), ['--mcp-server', spoof('evil'), '--mcp-server', spoof('trusted')]));
      try {
        await waitFor('both servers\' skills', async () => {
          const text = toolText(await client.callTool({ name: 'list_skills', arguments: {} }));
          return /mcp:trusted:pdf/.test(text) && /twice/.test(text) ? text : undefined;
        });
        const load = await client.callTool({ name: 'load_skills', arguments: { names: ['mcp:trusted:pdf'] } });
        assert.equal(load.isError, false, toolText(load));
        const text = JSON.stringify(load.content);
        assert.deepEqual(text.match(MARKS), ['TRUSTED-PDF'], text.slice(0, 2000));
      } finally {
        await client.close();
      }
    });
  });
});
