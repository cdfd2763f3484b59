// The extension points the README's architecture paragraph counts (issue 23.6): in a temporary copy of src/, add a
// validation rule, a sandbox backend, an MCP request and a skill source kind, count the files each touched, and
// check that the code then serves the addition (loaded with tsx from the copy). Adding a tool is counted by newTool.test.ts (it needs the
// type check). A count that grows fails here, and so must the README.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copyProject, edit, ROOT } from './projectCopy';


/** Runs `code` (TypeScript, CommonJS imports relative to the copy) with tsx in the copy; its stdout, trimmed. */
function inCopy(dir: string, code: string): string {
  const probe = path.join(dir, 'probe.ts');
  fs.writeFileSync(probe, code);
  const r = spawnSync(process.execPath, ['--import', 'tsx', probe], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  return r.stdout.trim();
}

/** The README's count for one extension point: "... (N file(s))" after its name in the architecture paragraph. */
function readmeCount(point: string): number {
  const text = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const m = new RegExp(`\\*\\*${point}\\*\\*[^(]*\\((\\d+) files?`).exec(text);
  assert.ok(m, `README.md has no count for "${point}" in its architecture paragraph`);
  return Number(m[1]);
}

describe('extension points: how many files each addition touches', function () {
  this.timeout(300_000);
  let dir: string;

  before(() => {
    dir = copyProject('extension-points-', ['src']);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a validation rule in an existing family: 1 file (the README rules table is generated from it)', () => {
    const touched = new Set<string>();
    edit(path.join(dir, 'src/core/skill/rules/license.ts'), 'export const LICENSE_RULES: readonly RuleInfo[] = [', "export const LICENSE_RULES: readonly RuleInfo[] = [\n  rule('license-extra', 'info', 'info', 'An added rule.', 'Why it matters.'),", touched);
    const out = inCopy(dir, "import { RULE_FAMILIES } from './src/core/skill/rules';\nimport { renderRulesTable } from './src/core/skill/rules/rulesTable';\nconsole.log(JSON.stringify([RULE_FAMILIES.flatMap((f) => f.rules.map((r) => r.id)).includes('license-extra'), renderRulesTable().includes('license-extra')]));\n");
    assert.deepEqual(JSON.parse(out), [true, true]);
    assert.equal(touched.size, 1);
    assert.equal(readmeCount('rule'), touched.size);
  });

  it('a sandbox backend: 2 files (the backend and its line in the registry)', () => {
    const touched = new Set<string>();
    const backend = path.join(dir, 'src/core/exec/sandbox/fakeBox.ts');
    fs.writeFileSync(backend, "import type { SandboxBackend } from './backend';\nexport const fakeBox: SandboxBackend = { id: 'fake-box', platforms: ['aix'], guarantees: 'none at all', probe: () => Promise.resolve({ available: true, backend: 'fake-box', program: '/bin/true' }) };\n");
    touched.add(backend);
    edit(path.join(dir, 'src/core/exec/sandbox/registry.ts'), 'export const SANDBOX_BACKENDS: readonly SandboxBackend[] = [', "import { fakeBox } from './fakeBox';\nexport const SANDBOX_BACKENDS: readonly SandboxBackend[] = [fakeBox, ", touched);
    const out = inCopy(dir, "import { probeBackends, statusOf, describeSandbox } from './src/core/exec/sandbox/registry';\nprobeBackends({} as never, 'aix').then((p) => console.log(JSON.stringify(describeSandbox(statusOf('auto', p)))));\n");
    assert.match(JSON.parse(out) as string, /Sandboxed with fake-box \(\/bin\/true\): none at all/);
    assert.equal(touched.size, 2);
    assert.equal(readmeCount('sandbox backend'), touched.size);
  });

  it('an MCP request: 1 file (its entry in the one handler table both protocol eras serve)', () => {
    const touched = new Set<string>();
    edit(path.join(dir, 'src/cli/mcp/mcpHandlers.ts'), '  table.push(\n    {\n      method: \'resources/list\',', "  table.push({ method: 'extra/ping', schema: ListRequest('extra/ping'), cacheable: true, handle: async () => ({ pong: true }) } as McpHandler);\n  table.push(\n    {\n      method: 'resources/list',", touched);
    const out = inCopy(dir, "import { mcpHandlers } from './src/cli/mcp/mcpHandlers';\nconsole.log(JSON.stringify(mcpHandlers({ tools: false } as never).map((h) => h.method)));\n");
    assert.ok((JSON.parse(out) as string[]).includes('extra/ping'), out);
    // Both eras build their table from mcpHandlers: the legacy session and the modern dispatcher.
    for (const f of ['src/cli/mcp/mcpSession.ts', 'src/cli/mcp/httpServer.ts', 'src/cli/commands/mcp.ts']) assert.match(fs.readFileSync(path.join(ROOT, f), 'utf8'), /mcpHandlers\(backend\)/, f);
    assert.equal(touched.size, 1);
    assert.equal(readmeCount('MCP request'), touched.size);
  });

  it('a skill source kind: 2 files (its line in the kinds table src/core/sources/sourceKinds.ts, and its reader in src/core/sourceReaders/)', () => {
    const touched = new Set<string>();
    // The kind's one definition: its line in the table every registry reads (no registration anywhere else).
    edit(
      path.join(dir, 'src/core/sources/sourceKinds.ts'),
      'export const SOURCE_KINDS: readonly SourceKind[] = [',
      "export const SOURCE_KINDS: readonly SourceKind[] = [\n  { name: 'shelf', rank: 3.5, readOnly: true, label: 'Shelf', idPrefix: 'shelf', idHasSource: true, scopeWord: 'shelf', inWorkspace: false },",
      touched,
    );
    const reader = path.join(dir, 'src/core/sourceReaders/shelf.ts');
    fs.writeFileSync(
      reader,
      [
        "import { guardedExecutor } from '../runtime/guardedExecutor';",
        "import { sourceOf } from '../sources/sourceKinds';",
        "import type { SourceReaderSpec } from './sourceReader';",
        '/** The skills of one folder, whose runs are told they came from the shelf. */',
        'export function shelf(folder: string): SourceReaderSpec {',
        "  const kind = sourceOf('shelf');",
        "  return { kind, open: () => ({ kind, roots: () => [{ path: folder, scope: 'shelf', source: 'books' }], runs: (next) => guardedExecutor(next, (req) => ({ ...req, env: { ...req.env, SHELF: 'yes' } })) }) };",
        '}',
        '',
      ].join('\n'),
    );
    touched.add(reader);
    // The new kind, used as a front end would: given to the one factory, it lists a skill under its ids and precedence,
    // its files are read through the core, and its run hook reaches the script.
    const out = inCopy(
      dir,
      [
        "import * as fs from 'node:fs';",
        "import * as os from 'node:os';",
        "import * as path from 'node:path';",
        "import { createAgentSkills } from './src/core/agentSkills';",
        "import { shelf } from './src/core/sourceReaders/shelf';",
        "import { sourceOf } from './src/core/sources';",
        'async function main() {',
        "  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'shelf-'));",
        "  const skill = path.join(base, 'books', 'tale');",
        "  fs.mkdirSync(path.join(skill, 'scripts'), { recursive: true });",
        "  fs.writeFileSync(path.join(skill, 'SKILL.md'), '---\\nname: tale\\ndescription: Tells a tale. Use when a story is asked for.\\n---\\n\\n# Tale\\n\\nOnce upon a time.\\n');",
        "  fs.writeFileSync(path.join(skill, 'scripts', 'where.sh'), '#!/bin/sh\\necho shelf=$SHELF\\n', { mode: 0o755 });",
        "  const core = createAgentSkills({ stateDir: path.join(base, 'state'), roots: [], sources: [shelf(path.join(base, 'books'))], runner: { sandbox: 'off' }, runtime: { audit: false } });",
        '  const catalog = await core.catalog();',
        "  await core.tools().openSession('s');",
        "  const load = await core.tools().invoke('load', { names: ['tale'] }, { sessionId: 's' });",
        "  const run = await core.tools().invoke('run_script', { skill: 'tale', script: 'scripts/where.sh' }, { sessionId: 's' });",
        "  console.log(JSON.stringify({ ids: catalog.registry.all().map((r) => r.id), label: sourceOf('shelf').label, loaded: load.ok, stdout: run.ok ? (run.result as { stdout: string }).stdout : JSON.stringify(run) }));",
        '  await core.dispose();',
        '  fs.rmSync(base, { recursive: true, force: true });',
        '}',
        'void main();',
        '',
      ].join('\n'),
    );
    assert.deepEqual(JSON.parse(out), { ids: ['shelf:books:tale'], label: 'Shelf', loaded: true, stdout: 'shelf=yes\n' });
    // A process that touches a registry without the factory (the language server, a test, a script) knows the kind
    // from the table alone: nothing has to be imported first for its side effect.
    const bare = inCopy(
      dir,
      [
        "import * as fs from 'node:fs';",
        "import * as os from 'node:os';",
        "import * as path from 'node:path';",
        "import { createSkillRegistry } from './src/core/registry';",
        'async function main() {',
        "  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'shelf-bare-'));",
        "  fs.mkdirSync(path.join(base, 'books', 'tale'), { recursive: true });",
        "  fs.writeFileSync(path.join(base, 'books', 'tale', 'SKILL.md'), '---\\nname: tale\\ndescription: Tells a tale. Use when a story is asked for.\\n---\\n\\n# Tale\\n');",
        "  const snap = await createSkillRegistry({ roots: [{ path: path.join(base, 'books'), scope: 'shelf', source: 'books' }] }).refresh();",
        '  console.log(JSON.stringify(snap.records.map((r) => `${r.id}=${r.status}`)));',
        '  fs.rmSync(base, { recursive: true, force: true });',
        '}',
        'void main();',
        '',
      ].join('\n'),
    );
    assert.deepEqual(JSON.parse(bare), ['shelf:books:tale=ok']);
    assert.equal(touched.size, 2);
    assert.equal(readmeCount('source'), touched.size);
  });

  it('a tool: the README states the count newTool.test.ts holds (2 files)', () => {
    assert.match(fs.readFileSync(path.join(ROOT, 'test/build/newTool.test.ts'), 'utf8'), /assert\.equal\(touched\.size, 2,/);
    assert.equal(readmeCount('tool'), 2);
  });
});
