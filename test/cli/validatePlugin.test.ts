// `agent-skills validate <plugin-folder>` (issue 13 point 5): plugin.json, mcp.json and every skill checked with the
// same output conventions and exit codes as skills; each finding names the file, the field and the spec section.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MCP_SCHEMA_1_0, PLUGIN_SCHEMA_1_0 } from '../../src/core/plugins';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { fileWriter } from '../support/tempDir';

const CLI = path.resolve(__dirname, '../../dist/cli.js');

describe('agent-skills validate <plugin-folder>', function () {
  this.timeout(60_000);
  let base: string;
  const write = fileWriter(() => base);
  const skill = (name: string) => `---\nname: ${name}\ndescription: Use ${name} when the task needs ${name}.\n---\n# ${name}\n`;
  const validate = (...args: string[]) => spawnSync(process.execPath, [CLI, 'validate', ...args], { cwd: base, encoding: 'utf8' });
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => (base = fs.mkdtempSync(path.join(os.tmpdir(), 'validate-plugin-'))));
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('a valid plugin: "Valid plugin", each skill valid, exit 0', () => {
    write('good/plugin.json', JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name: 'good', version: '1.0.0' }));
    write('good/skills/alpha/SKILL.md', skill('alpha'));
    write('good/mcp.json', JSON.stringify({ $schema: MCP_SCHEMA_1_0, mcpServers: { local: { type: 'stdio', command: 'node', args: ['${PLUGIN_ROOT}/server.js'] } } }));
    const r = validate('good');
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^Valid plugin: good$/m);
    assert.match(r.stdout, /^Valid skill: good\/skills\/alpha$/m);
    assert.match(r.stdout, /Checked 1 plugin\(s\) and 1 skill\(s\) \(lenient\): 2 valid, 0 invalid\./);
  });

  it('a broken plugin: bad name (§5.5), an mcp.json entry with a shell command (§7.2), a skills/ folder that is not a skill (§7.1), a broken skill; exit 1', () => {
    write('bad/plugin.json', JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name: 'Bad_Name' }, null, 2));
    write('bad/skills/notes/readme.md', 'not a skill');
    write('bad/skills/broken/SKILL.md', '---\nname: Broken Skill\n---\n');
    const r = validate('bad');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^Validation failed for bad:$/m);
    assert.match(r.stderr, /"name" "Bad_Name" is not a plugin name/);

    write('bad/plugin.json', JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name: 'bad' }, null, 2));
    write('bad/mcp.json', JSON.stringify({ $schema: MCP_SCHEMA_1_0, mcpServers: { db: { type: 'stdio', command: 'npx db-server --port 1' }, api: { type: 'streamable-http', url: 'https://x.example/mcp', headers: { Authorization: 'Bearer 0123456789abcdef' } } } }, null, 2));
    const j = validate('bad', '--format', 'json');
    assert.equal(j.status, 1);
    const results = JSON.parse(j.stdout) as { path: string; kind?: string; valid: boolean; diagnostics: { rule: string; severity: string; message: string; file?: string; range: { start: { line: number } } }[] }[];
    const plugin = results.find((x) => x.kind === 'plugin')!;
    assert.equal(plugin.valid, false);
    const mcp = plugin.diagnostics.find((d) => d.rule === 'plugin-mcp' && d.severity === 'error')!;
    assert.match(mcp.message, /server "db": "command" .* must be one executable token/);
    assert.equal(mcp.file, 'mcp.json');
    assert.ok(mcp.range.start.line > 0, 'the finding points at the server in mcp.json');
    assert.ok(plugin.diagnostics.some((d) => d.rule === 'plugin-mcp' && d.severity === 'warning' && /looks like a credential/.test(d.message)));
    assert.ok(plugin.diagnostics.some((d) => d.rule === 'plugin-skills' && d.severity === 'warning' && /notes has no SKILL\.md/.test(d.message)), JSON.stringify(plugin.diagnostics));
    const broken = results.find((x) => x.path.endsWith(path.join('skills', 'broken')))!;
    assert.equal(broken.valid, false);
    const sarif = JSON.parse(validate('bad', '--format', 'sarif').stdout) as { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    assert.ok(sarif.runs[0].results.some((x) => x.ruleId === 'plugin-mcp' && /mcp\.json$/.test(x.locations[0].physicalLocation.artifactLocation.uri)));
  });
});
