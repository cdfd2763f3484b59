// `agent-skills eval` (the offline trigger judge) through the real CLI process: fixtures of skills and trigger
// files in a temp folder; exit codes, the Markdown report, JSON, SARIF, GitHub annotations, --compare, and the
// input errors and hostile input (a 10,000-request file, control characters, a request naming the skill).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TriggerReport, TriggerReportDiff } from '../../src/core/evals';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { makeTempDir } from '../support/tempDir';
import { CLI } from './mcpSupport';

function write(root: string, folder: string, description: string): string {
  fs.mkdirSync(path.join(root, folder), { recursive: true });
  fs.writeFileSync(path.join(root, folder, 'SKILL.md'), `---\nname: ${folder}\ndescription: ${JSON.stringify(description)}\n---\n# ${folder}\n`);
  return path.join(root, folder);
}

type Req = { query: string; should_trigger: boolean; split?: string };

/** One request a line, so request n is on line n + 1. */
function triggers(dir: string, reqs: Req[]): string {
  const file = path.join(dir, 'evals', 'trigger-queries.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `[\n${reqs.map((r) => `  ${JSON.stringify(r)}`).join(',\n')}\n]\n`);
  return file;
}

const PASS: Req = { query: 'fill in the form fields of this pdf and flatten it', should_trigger: true };
const OTHER_FIRST: Req = { query: 'combine these three pdf files into one document', should_trigger: true, split: 'validation' };
const NEAR_MISS_TRIGGERS: Req = { query: 'merge the pdf files then fill in the acroform checkboxes', should_trigger: false };
const BELOW_THRESHOLD: Req = { query: 'write a long essay about gardening, cooking, travel, weather and history that mentions signatures', should_trigger: true };
const STAYS_OUT: Req = { query: 'turn the transcript of our meeting about pdf signatures into notes with owners and action items', should_trigger: false, split: 'validation' };

describe('agent-skills eval (offline trigger judge, real process)', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  let root: string;
  let forms: string;
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => {
    tmp = makeTempDir('eval-cli-');
    root = path.join(tmp.dir, 'skills');
    forms = write(root, 'pdf-forms', 'Fill in PDF forms and flatten them; AcroForm fields, checkboxes and signatures in PDF files.');
    write(root, 'pdf-merge', 'Merge, split and reorder pages of PDF documents; combine several PDF files into one.');
    write(root, 'helm-deploy', 'Deploy services to Kubernetes with Helm charts and roll back failed releases.');
    write(root, 'meeting-notes', 'Summarise meeting transcripts into notes with decisions, owners and action items.');
  });
  afterEach(() => tmp.cleanup());
  const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: tmp.dir, encoding: 'utf8', env: { ...process.env, HOME: tmp.dir } });
  const discovery = () => ['--no-defaults', '--root', root, '--state-dir', path.join(tmp.dir, 'state')];

  it('judges each request: pass, another skill first, a near miss the index triggers, one under the threshold; exit 1; JSON has the one result shape', () => {
    triggers(forms, [PASS, OTHER_FIRST, NEAR_MISS_TRIGGERS, BELOW_THRESHOLD, STAYS_OUT]);
    const r = cli('eval', 'pdf-forms', '--json', ...discovery());
    assert.equal(r.status, 1, r.stderr);
    const report = JSON.parse(r.stdout) as TriggerReport;
    assert.equal(report.skill, 'pdf-forms');
    assert.equal(report.file, path.join(forms, 'evals', 'trigger-queries.json'));
    assert.equal(report.catalogSize, 4);
    const brief = report.results.map((x) => [x.passed, x.rank ?? null, x.first ?? null, x.inList, x.line]);
    assert.deepEqual(brief, [
      [true, 1, null, true, 2],
      [false, 2, 'pdf-merge', true, 3],
      [false, 1, null, true, 4],
      [false, 1, null, true, 5],
      [true, 2, 'meeting-notes', true, 6],
    ]);
    assert.ok((report.results[3].confidence as number) < 0.2);
    assert.deepEqual([report.train, report.validation], [{ passed: 1, total: 3 }, { passed: 1, total: 2 }]);

    const text = cli('eval', 'pdf-forms', ...discovery());
    assert.equal(text.status, 1);
    assert.match(text.stdout, /^# Trigger test: pdf-forms$/m);
    assert.match(text.stdout, /\*\*2 of 5 requests passed \(40%\)\.\*\* Train: 33% \(1\/3\)\. Validation: 50% \(1\/2\)\./);
    assert.match(text.stdout, /^\| 2 \| should \| \*\*FAIL\*\* \| 0% \| 2 \(0\.\d+\) \| pdf-merge \| yes \| validation \| combine these three pdf files into one document \|$/m);
    assert.match(text.stdout, /^#4 ░{20}   0%  should  FAIL$/m);
  });

  it('exit 0 when every request passes; --split judges one split; a folder path not in the catalog is added to it', () => {
    triggers(forms, [PASS, STAYS_OUT]);
    const ok = cli('eval', 'pdf-forms', ...discovery());
    assert.equal(ok.status, 0, ok.stderr + ok.stdout);
    const only = cli('eval', 'pdf-forms', '--split', 'validation', '--json', ...discovery());
    assert.deepEqual((JSON.parse(only.stdout) as TriggerReport).results.map((x) => x.query), [STAYS_OUT.query]);
    // A skill outside every root: judged against the catalog plus itself.
    const outside = write(path.join(tmp.dir, 'drafts'), 'pdf-sign', 'Sign PDF files with a certificate and verify signatures.');
    triggers(outside, [{ query: 'sign this pdf with my certificate', should_trigger: true }, STAYS_OUT]);
    const added = cli('eval', outside, '--json', ...discovery());
    assert.equal(added.status, 0, added.stderr);
    const rep = JSON.parse(added.stdout) as TriggerReport;
    assert.deepEqual([rep.skill, rep.catalogSize, rep.results[0].rank], ['pdf-sign', 5, 1]);
    // A draft of a catalog skill (same name, another folder) stands in for it: judged with its own description.
    const draft = write(path.join(tmp.dir, 'drafts'), 'pdf-merge', 'Fill in PDF forms and flatten them; AcroForm fields.');
    triggers(draft, [{ query: 'combine these three pdf files into one document', should_trigger: true }, STAYS_OUT]);
    const stand = cli('eval', draft, '--json', ...discovery());
    assert.equal(stand.status, 1, stand.stderr);
    assert.match(stand.stderr, /stands in for workspace:pdf-merge \(same name "pdf-merge"\) in this run/);
    const sr = JSON.parse(stand.stdout) as TriggerReport;
    assert.deepEqual([sr.catalogSize, sr.results[0].passed], [4, false]);
  });

  it('--format sarif and github locate each failed request at its line in the trigger file', () => {
    triggers(forms, [PASS, OTHER_FIRST]);
    const sarif = cli('eval', 'pdf-forms', '--format', 'sarif', ...discovery());
    assert.equal(sarif.status, 1, sarif.stderr);
    const doc = JSON.parse(sarif.stdout) as { version: string; runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; ruleIndex: number; level: string; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[] }[] };
    assert.equal(doc.version, '2.1.0');
    // The set has no should-not request: the file's trigger-balance warning is a result too.
    const failed = doc.runs[0].results.filter((x) => x.ruleId === 'trigger-failed');
    assert.equal(failed.length, 1);
    const [res] = failed;
    assert.ok(doc.runs[0].results.some((x) => x.ruleId === 'trigger-balance' && x.level === 'warning'));
    assert.deepEqual([res.ruleId, res.level, res.locations[0].physicalLocation.artifactLocation.uri, res.locations[0].physicalLocation.region.startLine], ['trigger-failed', 'error', 'skills/pdf-forms/evals/trigger-queries.json', 3]);
    assert.equal(doc.runs[0].tool.driver.rules[res.ruleIndex].id, 'trigger-failed');
    assert.match(res.message.text, /Request 2 "combine these three pdf files into one document" should select "pdf-forms", but "pdf-merge" ranks first \("pdf-forms" ranks 2\)/);
    const gh = cli('eval', 'pdf-forms', '--format', 'github', ...discovery());
    assert.equal(gh.status, 1);
    assert.match(gh.stdout, /^::error file=skills\/pdf-forms\/evals\/trigger-queries\.json,line=3,col=\d+,endLine=3,endColumn=\d+,title=agent-skills trigger-failed::Request 2 /m);
    assert.equal(gh.stdout.split('\n').filter((l) => l.startsWith('::error')).length, 1);
  });

  it('--compare prints the diff against a previous --json run (fail → pass after a description change)', () => {
    triggers(forms, [PASS, OTHER_FIRST]);
    const before = path.join(tmp.dir, 'before.json');
    fs.writeFileSync(before, cli('eval', 'pdf-forms', '--json', ...discovery()).stdout);
    write(root, 'pdf-forms', 'Fill in PDF forms and flatten them; also combine several PDF files into one document first.');
    const text = cli('eval', 'pdf-forms', '--compare', before, ...discovery());
    assert.equal(text.status, 0, text.stderr + text.stdout);
    assert.match(text.stdout, /^\| fail → pass \| should \| 0% → 100% \| \+100 \| validation \| combine these three pdf files into one document \|$/m);
    assert.match(text.stdout, /^\| Validation \| 0% \(0\/1\) → 100% \(1\/1\) \|$/m);
    const json = JSON.parse(cli('eval', 'pdf-forms', '--compare', before, '--json', ...discovery()).stdout) as TriggerReportDiff;
    assert.equal(json.counts['fail→pass'], 1);
    fs.writeFileSync(before, '{"judge":"index","results":[{"query":1}]}');
    const bad = cli('eval', 'pdf-forms', '--compare', before, ...discovery());
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /before\.json: "skill" must be a string|results\[0\]\."split" must be a string/);
  });

  it('input errors exit 2 and say where and what to do: no trigger file, invalid JSON, unknown skill, bad options', () => {
    const none = cli('eval', 'pdf-forms', ...discovery());
    assert.equal(none.status, 2);
    assert.match(none.stderr, new RegExp(`no trigger file at ${path.join(forms, 'evals', 'trigger-queries.json').replace(/[.]/g, '\\.')}\\. Create evals/trigger-queries\\.json in the skill folder: a JSON array of`));
    fs.mkdirSync(path.join(forms, 'evals'));
    fs.writeFileSync(path.join(forms, 'evals', 'trigger-queries.json'), '[\n  { "query": "x", "should_trigger": "yes" }\n]\n');
    const invalid = cli('eval', 'pdf-forms', ...discovery());
    assert.equal(invalid.status, 2);
    assert.match(invalid.stderr, /trigger-queries\.json:2:\d+: error: Request 1: "should_trigger" must be a boolean .*\[trigger-field\]/);
    const unknown = cli('eval', 'pdf-form', ...discovery());
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /no skill named "pdf-form" among the 4 discovered skill\(s\), and no folder pdf-form\. Did you mean "pdf-forms"/);
    fs.writeFileSync(path.join(root, 'helm-deploy', 'SKILL.md'), '---\nname: helm-deploy\n---\n# no description\n');
    const broken = cli('eval', 'helm-deploy', ...discovery());
    assert.equal(broken.status, 2);
    assert.match(broken.stderr, /"helm-deploy" \(.*helm-deploy\/SKILL\.md\) cannot load: .*description.*Fix it \(`agent-skills validate /);
    const split = cli('eval', 'pdf-forms', '--split', 'test', ...discovery());
    assert.equal(split.status, 2);
    assert.match(split.stderr, /--split must be one of train, validation, all, not 'test'/);
  });

  it('hostile input: a 10,000-request file is refused at the bound; control characters are escaped; a request naming the skill is warned about and judged', () => {
    triggers(forms, Array.from({ length: 10_000 }, (_, i) => ({ query: `request ${i}`, should_trigger: i % 2 === 0 })));
    const big = cli('eval', 'pdf-forms', ...discovery());
    assert.equal(big.status, 2);
    assert.match(big.stderr, /has 10000 requests; only the first 1000 are checked/);

    const esc = { query: 'fill the pdf form \u001b]8;;http://evil\u0007link\u001b[31m\n::error ::injected', should_trigger: true };
    triggers(forms, [esc, { query: 'use the pdf-forms skill to fill the tax form', should_trigger: true }, STAYS_OUT]);
    const text = cli('eval', 'pdf-forms', ...discovery());
    assert.ok(!/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(text.stdout + text.stderr), 'no control character reaches the terminal');
    assert.match(text.stdout, /\| fill the pdf form \\\\x1b\\\]8;;http:\/\/evil\\\\x07link\\\\x1b\\\[31m ::error ::injected \|$/m);
    assert.match(text.stderr, /trigger-queries\.json:3:\d+: warning: Request 2 names the skill "pdf-forms".*\[trigger-names-skill\]/);
    const gh = cli('eval', 'pdf-forms', '--format', 'github', ...discovery());
    assert.ok(!gh.stdout.split('\n').some((l) => l.startsWith('::error ::injected')), gh.stdout);
    assert.match(gh.stdout, /^::warning file=skills\/pdf-forms\/evals\/trigger-queries\.json,line=3,.*title=agent-skills trigger-names-skill::/m);
  });
});
