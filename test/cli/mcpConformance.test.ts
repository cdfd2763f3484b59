// The official MCP conformance suite (@modelcontextprotocol/conformance, installed once into .cache/conformance by
// scripts/setup-conformance.mjs and run with Node 24) against the real `dist/cli.js mcp --http` on loopback, on
// both protocol eras: the frozen requirement sets of 2025-11-25 (initialize handshake) and 2026-07-28 (stateless),
// and the Skills Extension's own scenarios (SEP-2640). Every scenario applies unless the table below says why it
// cannot (it needs the suite's own demo tools, resources or prompts, or a capability this server does not
// declare); within a scenario that applies, a check the suite itself marks "Not testable" (it needs a demo tool)
// is reported, not counted. Any other failure fails the test. A suite that cannot be installed fails it too.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { REPO, serverArgs, startHttpProcess, writeFixtureSkills } from './mcpSupport';

interface ConformanceSetup {
  ensureConformance(): { node: string; bin: string };
  CONFORMANCE_VERSION: string;
}

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

const DEMO_TOOLS = "needs the suite's demo tools (test_* tools of its reference server); this server's tools are the skill tools";
const MRTR = "needs the suite's demo tools that ask the client for input (MRTR); this server asks (input_required) only before a script run, which the suite's scenarios do not call (our own MRTR checks: test/cli/mcpScriptConsent.test.ts)";
/** Scenarios that cannot apply to this server, and why. Everything else applies. */
const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level': 'this server declares no logging capability (it logs to stderr; Logging is deprecated in 2026-07-28)',
  'completion-complete': 'this server declares no completions capability',
  'tools-call-simple-text': DEMO_TOOLS,
  'tools-call-image': DEMO_TOOLS,
  'tools-call-audio': DEMO_TOOLS,
  'tools-call-embedded-resource': DEMO_TOOLS,
  'tools-call-mixed-content': DEMO_TOOLS,
  'tools-call-with-logging': DEMO_TOOLS,
  'tools-call-error': DEMO_TOOLS,
  'tools-call-with-progress': DEMO_TOOLS,
  'tools-call-sampling': `${DEMO_TOOLS}; this server never asks the client for sampling`,
  'tools-call-elicitation': `${DEMO_TOOLS}; this server asks (elicitation) only before a script run, which the suite's scenarios do not call`,
  'elicitation-sep1034-defaults': `${DEMO_TOOLS}; this server asks (elicitation) only before a script run, which the suite's scenarios do not call`,
  'elicitation-sep1330-enums': `${DEMO_TOOLS}; this server asks (elicitation) only before a script run, which the suite's scenarios do not call`,
  'json-schema-2020-12': DEMO_TOOLS,
  'http-custom-header-server-validation': 'needs tools whose parameters carry x-mcp-header; no tool of this server mirrors a parameter into a header',
  'resources-read-text': "needs the suite's demo resources (test://static-text); this server serves skill:// resources only",
  'resources-read-binary': "needs the suite's demo resources (test://static-binary); this server serves skill:// resources only",
  'resources-templates-read': "needs the suite's demo template (test://template/{id}/data); this server serves skill:// resources only",
  'prompts-get-simple': "needs the suite's demo prompts; this server's prompts are its user-invocable skills",
  'prompts-get-with-args': "needs the suite's demo prompts; this server's prompts are its user-invocable skills",
  'prompts-get-embedded-resource': "needs the suite's demo prompts; this server's prompts are its user-invocable skills",
  'prompts-get-with-image': "needs the suite's demo prompts; this server's prompts are its user-invocable skills",
};
for (const s of ['basic-elicitation', 'basic-sampling', 'basic-list-roots', 'request-state', 'multiple-input-requests', 'multi-round', 'missing-input-response', 'non-tool-request', 'result-type', 'unsupported-methods', 'tampered-state', 'capability-check', 'ignore-extra-params', 'validate-input']) {
  NOT_APPLICABLE[`input-required-result-${s}`] = MRTR;
}
const TASKS = 'the tasks extension (io.modelcontextprotocol/tasks) is declined by this server (README, Protocol revisions): no tool runs as a task';
for (const s of ['lifecycle', 'capability-negotiation', 'wire-fields', 'request-state-removal', 'mrtr-input', 'request-headers', 'dispatch-and-envelope', 'status-notifications', 'required-task-error', 'mrtr-composition']) {
  NOT_APPLICABLE[`tasks-${s}`] = TASKS;
}
/** The Skills Extension's scenarios: extension scenarios run only when named. */
const SKILLS_SCENARIOS = ['sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory'];

/** Runs the suite with `args`; resolves with its exit code and output (never throws on a failing run). */
function runSuite(paths: { node: string; bin: string }, args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(paths.node, [paths.bin, 'server', ...args], { cwd, env: { ...process.env, PATH: `${path.dirname(paths.node)}:${process.env.PATH}` }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out }));
  });
}

/** Each scenario's checks from an output folder (`server-<scenario>-<timestamp>/checks.json`). */
function readResults(dir: string): Map<string, Check[]> {
  const out = new Map<string, Check[]>();
  for (const name of fs.readdirSync(dir)) {
    const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(name);
    if (!m) continue;
    out.set(m[1], JSON.parse(fs.readFileSync(path.join(dir, name, 'checks.json'), 'utf8')) as Check[]);
  }
  return out;
}

/** Prints what applied, what did not and why, and returns the failures that count. */
function judge(label: string, results: Map<string, Check[]>): string[] {
  const failures: string[] = [];
  const lines: string[] = [`    ${label}:`];
  for (const [scenario, checks] of [...results].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const failed = checks.filter((c) => c.status === 'FAILURE');
    const why = NOT_APPLICABLE[scenario];
    if (why) {
      lines.push(`      - ${scenario}: does not apply: ${why}${failed.length ? '' : ' (it passes anyway)'}`);
      continue;
    }
    const untestable = failed.filter((c) => /^Not testable/i.test(c.errorMessage ?? ''));
    const real = failed.filter((c) => !untestable.includes(c));
    const passed = checks.filter((c) => c.status === 'SUCCESS').length;
    lines.push(`      ${real.length ? '✗' : '✓'} ${scenario}: applies; ${passed} checks passed${real.length ? `, ${real.length} failed` : ''}${untestable.length ? `; ${untestable.length} not testable here (${untestable.map((c) => c.id).join(', ')}: the suite needs its demo tools for them)` : ''}`);
    for (const c of real) failures.push(`${label} ${scenario} ${c.id}: ${c.errorMessage ?? c.status}`);
  }
  console.log(lines.join('\n'));
  return failures;
}

describe('MCP conformance suite (@modelcontextprotocol/conformance) against agent-skills mcp --http', function () {
  this.timeout(600_000);
  let tmp: { dir: string; cleanup: () => void };
  let paths: { node: string; bin: string };
  let server: Awaited<ReturnType<typeof startHttpProcess>>;

  before(async function () {
    this.timeout(BUILD_TIMEOUT_MS + 600_000);
    await ensureBuilt();
    const setup = (await import(pathToFileURL(path.join(REPO, 'scripts/setup-conformance.mjs')).href)) as ConformanceSetup;
    // No skip: a suite that cannot be installed (no Node 24, no registry, a read-only cache) fails here with the reason.
    paths = setup.ensureConformance();
    console.log(`    @modelcontextprotocol/conformance ${setup.CONFORMANCE_VERSION} (${paths.bin}), run with ${paths.node}`);
    tmp = makeTempDir('mcp-conformance-');
    writeFixtureSkills(path.join(tmp.dir, 'skills'));
    server = await startHttpProcess([...serverArgs(path.join(tmp.dir, 'skills'), path.join(tmp.dir, 'state')), '--http', '127.0.0.1:0']);
  });
  after(async () => {
    await server?.stop();
    tmp?.cleanup();
  });

  for (const revision of ['2025-11-25', '2026-07-28']) {
    it(`passes every scenario that applies of the ${revision} requirements`, async () => {
      const out = path.join(tmp.dir, `results-${revision}`);
      const r = await runSuite(paths, ['--url', server.url.href, '--requirements', revision, '-o', out], tmp.dir);
      const results = fs.existsSync(out) ? readResults(out) : new Map<string, Check[]>();
      assert.ok(results.size > 10, `the suite ran ${results.size} scenarios (exit ${r.code}):\n${r.out.slice(-3000)}`);
      const failures = judge(`${revision} requirements`, results);
      const applied = [...results.keys()].filter((s) => !NOT_APPLICABLE[s]);
      assert.ok(applied.length >= 8, `only ${applied.length} scenarios applied: ${applied.join(', ')}`);
      assert.deepEqual(failures, [], `conformance failures that apply:\n${failures.join('\n')}`);
    });
  }

  it('passes the Skills Extension scenarios (SEP-2640)', async () => {
    const failures: string[] = [];
    for (const scenario of SKILLS_SCENARIOS) {
      const out = path.join(tmp.dir, `results-${scenario}`);
      const r = await runSuite(paths, ['--url', server.url.href, '--scenario', scenario, '-o', out], tmp.dir);
      const results = fs.existsSync(out) ? readResults(out) : new Map<string, Check[]>();
      assert.ok(results.has(scenario), `${scenario} did not run (exit ${r.code}):\n${r.out.slice(-3000)}`);
      failures.push(...judge(scenario, results));
    }
    assert.deepEqual(failures, [], `conformance failures:\n${failures.join('\n')}`);
  });
});
