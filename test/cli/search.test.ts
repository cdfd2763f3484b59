// find_skills and the routing commands through real processes: `agent-skills search` and `prompt --request`
// (spawned dist/cli.js), and find_skills over MCP with the SDK's client against `agent-skills mcp`.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { makeTempDir } from '../support/tempDir';
import { DEFAULT_SEARCH_LIMIT } from '../../src/core/index/skillSearch';
import { CLI, serverArgs, stdioClient, toolText } from './mcpSupport';

function write(root: string, folder: string, description: string, body = `# ${folder}\n`): void {
  fs.mkdirSync(path.join(root, folder), { recursive: true });
  fs.writeFileSync(path.join(root, folder, 'SKILL.md'), `---\nname: ${folder}\ndescription: ${JSON.stringify(description)}\n---\n${body}`);
}

describe('find_skills, agent-skills search and prompt --request (real processes)', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  let root: string;
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => {
    tmp = makeTempDir('search-cli-');
    root = path.join(tmp.dir, 'skills');
    for (let i = 0; i < 40; i++) write(root, `chore-${String(i).padStart(2, '0')}`, `Handles chore number ${i} of the weekly maintenance list, with checks and a report.`);
    write(root, 'pdf-forms', "Fill in PDF forms and flatten them; it's for AcroForm fields.", '# Filling\nUse pypdf.\n');
    write(root, 'helm-deploy', 'Deploy services to Kubernetes with Helm charts and roll back failed releases.');
  });
  afterEach(() => tmp.cleanup());
  const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: tmp.dir, encoding: 'utf8', env: { ...process.env, HOME: tmp.dir } });
  const discovery = () => ['--no-defaults', '--root', root, '--state-dir', path.join(tmp.dir, 'state')];

  it('search prints the best matches first, one JSON object a line with --json, and exits 1 when nothing matches well', () => {
    const r = cli('search', 'fill', 'a', 'pdf', 'form', '--limit', '2', '--json', ...discovery());
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { name: string; id: string; location: string; score: number });
    assert.equal(lines[0].name, 'pdf-forms');
    assert.equal(lines[0].id, 'workspace:pdf-forms');
    assert.equal(lines[0].location, path.join(root, 'pdf-forms', 'SKILL.md'));
    assert.ok(lines.length <= 2 && lines[0].score > 0);
    const none = cli('search', 'quantum chromodynamics', ...discovery());
    assert.equal(none.status, 1);
    assert.match(none.stderr, /No good match/);
  });

  it('search --explain says which words matched in which fields; --query-file reads a long query; bad options name the fix', () => {
    const q = path.join(tmp.dir, 'q.txt');
    fs.writeFileSync(q, `roll back the failed helm release on kubernetes\n${'context '.repeat(3000)}`);
    const r = cli('search', '--query-file', q, '--explain', '--limit', '1', ...discovery());
    assert.equal(r.stdout.split('\n')[0].startsWith('1. helm-deploy'), true, r.stdout);
    assert.match(r.stdout, /matched: "helm" \(name 1, description 1, headings 1\) [0-9.]+; .*"kubernet" \(description 1\)/);
    const bad = cli('search', 'x', '--limit', '0', ...discovery());
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--limit 0: give a whole number from 1 to 50/);
  });

  it('prompt --request --max-tokens prints the block the model gets: the matching skill in, the closing line pointing to find_skills', () => {
    const r = cli('prompt', '--request', 'please fill this pdf form', '--max-tokens', '300', '--explain', ...discovery());
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /<name>pdf-forms<\/name>/);
    assert.match(r.stdout, /it's for AcroForm fields/);
    assert.match(r.stdout, /more skills are installed but not listed here\. Search them with find_skills \(the task in your own words\) before working without a skill/);
    assert.match(r.stderr, /listed {2}pdf-forms {2}score [0-9.]+: .*"pdf" \(name 1, description 1\)/);
    assert.match(r.stderr, /left out {2}/);
    // Without a budget every skill is listed, sorted by name.
    const all = cli('prompt', ...discovery());
    assert.equal((all.stdout.match(/<skill>/g) ?? []).length, 42);
  });

  it('find_skills over MCP with the SDK client: best match first, "no good match" when none', async () => {
    const { client } = await stdioClient(serverArgs(root, path.join(tmp.dir, 'mcp-state')));
    try {
      const tools = await client.listTools();
      assert.ok(tools.tools.some((t) => t.name === 'find_skills'));
      const r = await client.callTool({ name: 'find_skills', arguments: { query: 'deploy to kubernetes with helm', limit: 3 } });
      assert.equal(r.isError, false, toolText(r));
      const text = toolText(r);
      assert.match(text, /^<available_skills>\n<skill>\n<name>helm-deploy<\/name>/);
      assert.match(text, /Best first\. Scores: helm-deploy/);
      // Without a limit: the shared default number of matches (40 chores match this), as the CLI prints.
      const many = toolText(await client.callTool({ name: 'find_skills', arguments: { query: 'weekly maintenance chore checks' } }));
      assert.equal(many.match(/<skill>/g)?.length, DEFAULT_SEARCH_LIMIT, many);
      const cliMany = cli('search', 'weekly maintenance chore checks', '--json', ...discovery());
      assert.equal(cliMany.stdout.trim().split('\n').length, DEFAULT_SEARCH_LIMIT, cliMany.stdout + cliMany.stderr);
      const none = toolText(await client.callTool({ name: 'find_skills', arguments: { query: 'quantum chromodynamics' } }));
      assert.match(none, /No (good match for|installed skill matches) "quantum chromodynamics"/);
      const bad = await client.callTool({ name: 'find_skills', arguments: { query: 3 } });
      assert.equal(bad.isError, true);
      assert.match(toolText(bad), /query/);
    } finally {
      await client.close();
    }
  });
});
