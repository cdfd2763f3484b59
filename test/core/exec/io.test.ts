import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readArtifact, ScriptRunError } from '../../../src/core/exec';
import { cleanup, setup, type Sandbox } from './helpers';

const code = (c: string) => (err: unknown) => err instanceof ScriptRunError && err.code === c;

describe('core/exec inputs, outputs, artifacts, dependency folder', () => {
  let sb: Sandbox;
  let project: string;
  let hostDir: string;
  before(() => {
    sb = setup();
    project = path.join(sb.tmp, 'project');
    hostDir = path.join(sb.tmp, 'host-allowed');
    fs.mkdirSync(path.join(project, 'data'), { recursive: true });
    fs.mkdirSync(hostDir);
    fs.writeFileSync(path.join(project, 'data', 'in.csv'), 'a,b\n1,2\n');
    fs.writeFileSync(path.join(hostDir, 'host.txt'), 'from host\n');
    fs.writeFileSync(path.join(sb.tmp, 'secret.txt'), 'nope\n');
  });
  after(() => cleanup(sb));

  const runner = () =>
    sb.runner({
      workspaceDir: project,
      allowedHostPaths: [hostDir],
      resolveSkillRoot: (name) => (name === 'exec-demo' ? sb.skillRoot : undefined),
    });
  const base = () => ({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/cat_input.sh' });

  it('stages inputs from workspace://, skill://, host:// and artifact://', async () => {
    const saved = await runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'echo v1 > out/note.txt', outputs: { globs: ['out/note.txt'], save: true, name_template: 'io/' } });
    assert.deepEqual(saved.artifact_files.map((a) => [a.name, a.version]), [['io/note.txt', 1]]);
    const r = await runner().run({
      ...base(),
      args: ['inputs/in.csv', 'inputs/notes.txt', 'work/inputs/host.txt', 'inputs/note.txt', 'work/deep/copy.csv'],
      inputs: [
        { from: 'workspace://data/in.csv' },
        { from: 'skill://exec-demo/notes.txt' },
        { from: `host://${path.join(hostDir, 'host.txt')}`, to: 'work/inputs/host.txt' },
        { from: 'artifact://io/note.txt@1' },
        { from: 'workspace://data/in.csv', to: 'work/deep/copy.csv', mode: 'link' },
      ],
    });
    assert.equal(r.exit_code, 0, r.stderr);
    assert.match(r.stdout, /== inputs\/in.csv\na,b\n1,2\n/);
    assert.match(r.stdout, /== inputs\/notes.txt\nshared by skill:\/\/ inputs\n/);
    assert.match(r.stdout, /== work\/inputs\/host.txt\nfrom host\n/);
    assert.match(r.stdout, /== inputs\/note.txt\nv1\n/);
    assert.match(r.stdout, /== work\/deep\/copy.csv\na,b\n/);
  });

  it('refuses inputs outside what is allowed', async () => {
    const bad = (from: string, to?: string) => runner().run({ ...base(), inputs: [{ from, to }] });
    await assert.rejects(bad(`host://${path.join(sb.tmp, 'secret.txt')}`), code('input_refused'));
    await assert.rejects(bad('workspace://../secret.txt'), code('input_refused'));
    await assert.rejects(bad('skill://nobody/x'), code('input_refused'));
    await assert.rejects(bad('skill://exec-demo/../secret.txt'), code('input_refused'));
    await assert.rejects(bad('artifact://missing@3'), code('input_refused'));
    await assert.rejects(bad('ftp://x'), code('input_refused'));
    await assert.rejects(bad('workspace://data/in.csv', '../escape.csv'), code('path_outside_workspace'));
    await assert.rejects(bad('workspace://data/in.csv', 'skills/exec-demo/x.csv'), code('path_outside_workspace'));
  });

  it('collects outputs by glob with MIME type, size, inline text and caps', async () => {
    const r = await sb.runner({ inlineFileBytes: 1000 }).run({
      skillName: 'exec-demo',
      skillRoot: sb.skillRoot,
      script: 'scripts/write_outputs.py',
      outputs: { globs: ['$OUTPUT_DIR/**'] },
    });
    const byName = Object.fromEntries(r.output_files.map((f) => [f.name, f]));
    assert.deepEqual(Object.keys(byName), ['out/data.json', 'out/image.png', 'out/report.txt', 'out/sub/big.txt']);
    assert.equal(byName['out/report.txt'].mime_type, 'text/plain');
    assert.equal(byName['out/report.txt'].content, 'report line\n');
    assert.equal(byName['out/report.txt'].truncated, false);
    assert.equal(byName['out/data.json'].mime_type, 'application/json');
    assert.equal(byName['out/image.png'].mime_type, 'image/png');
    assert.equal(byName['out/image.png'].content, undefined);
    assert.equal(byName['out/sub/big.txt'].size_bytes, 5000);
    assert.equal(byName['out/sub/big.txt'].content?.length, 1000);
    assert.equal(byName['out/sub/big.txt'].truncated, true);
    assert.match(byName['out/report.txt'].ref, /^run:\/\//);
    assert.ok(r.primary_output && !r.primary_output.truncated && r.primary_output.name.startsWith('out/'));
    const file = sb.runner().resolveRunRef(byName['out/report.txt'].ref);
    assert.equal(file && fs.readFileSync(file, 'utf8'), 'report line\n');
  });

  it('applies max_files, the total inline cap and omit_inline_content', async () => {
    const req = { skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/write_outputs.py' };
    const few = await sb.runner().run({ ...req, outputs: { globs: ['out/**'], max_files: 2 } });
    assert.equal(few.output_files.length, 2);
    assert.ok(few.warnings.some((w) => w.includes('max_files')));
    const total = await sb.runner({ inlineTotalBytes: 100 }).run({ ...req, outputs: { globs: ['out/**/*.txt'] } });
    const big = total.output_files.find((f) => f.name === 'out/sub/big.txt');
    assert.equal(total.output_files.reduce((n, f) => n + (f.content?.length ?? 0), 0), 100);
    assert.equal(big?.truncated, true);
    const meta = await sb.runner().run({ ...req, outputs: { globs: ['out/*.txt'] }, omitInlineContent: true });
    assert.equal(meta.output_files[0].content, undefined);
    assert.equal(meta.output_files[0].size_bytes, 12);
    const work = await sb.runner().run({ ...req, outputs: { globs: ['${WORK_DIR}/*.txt'] } });
    assert.deepEqual(work.output_files.map((f) => f.name), ['work/scratch.txt']);
    await assert.rejects(sb.runner().run({ ...req, outputs: { globs: ['../*'] } }), code('path_outside_workspace'));
  });

  it('saves outputs as versioned artifacts readable by version', async () => {
    const r1 = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'echo first > out/a.txt', outputs: { globs: ['out/a.txt'], save: true } });
    const r2 = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'echo second > out/a.txt', outputs: { globs: ['out/a.txt'], save: true, inline: false } });
    assert.deepEqual(r1.artifact_files, [{ name: 'a.txt', version: 1, ref: 'artifact://a.txt@1' }]);
    assert.equal(r2.artifact_files[0].version, 2);
    assert.equal(r2.output_files[0].ref, 'artifact://a.txt@2');
    assert.equal(r2.output_files[0].content, undefined);
    const artifacts = path.join(sb.stateDir, 'artifacts');
    assert.equal(readArtifact(artifacts, 'artifact://a.txt@1').data.toString(), 'first\n');
    assert.equal(readArtifact(artifacts, 'artifact://a.txt').data.toString(), 'second\n');
    assert.equal(readArtifact(artifacts, 'artifact://a.txt@2').info.mime_type, 'text/plain');
    assert.throws(() => readArtifact(artifacts, 'artifact://a.txt@9'), /versions are 1, 2/);
  });

  it('keeps the dependency folder between runs', async () => {
    const first = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/deps.sh', args: ['pkg-1.0'] });
    assert.equal(first.stdout, 'installed pkg-1.0\n');
    const second = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/deps.sh', args: ['pkg-2.0'] });
    assert.equal(second.stdout, 'found pkg-1.0\n');
    assert.notEqual(first.run_id, second.run_id);
  });
});
