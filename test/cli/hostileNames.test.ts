import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';

const repoRoot = path.resolve(__dirname, '../..');
const cli = path.join(repoRoot, 'dist/cli.js');

function run(cwd: string, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Folder names a hostile repository can hold: a workflow command after a newline, colours, an OSC 8 hyperlink, a bell. */
const HOSTILE = {
  newlineCommand: 'bad\n::error file=README.md,line=1::pwned',
  ansiColour: 'red\u001b[31mskill',
  osc8: 'link\u001b]8;;https:evil.example\u0007click\u001b]8;;\u0007',
  bell: 'ring\u0007bell',
  c1Csi: 'csi\u009b2Jc1',
};

/** No raw control character but line breaks, and no line a workflow runner would take for a command. */
function assertClean(out: string, what: string): void {
  assert.doesNotMatch(out, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/, `${what}: a raw control character reached the output:\n${JSON.stringify(out)}`);
}

describe('CLI text output escapes control characters in names, keys and values (issue 22, point 7)', function () {
  this.timeout(60_000);
  let root: string;

  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ask-hostile-names-'));
    for (const name of Object.values(HOSTILE)) {
      fs.mkdirSync(path.join(root, name));
      // The name differs from the folder (a finding quotes both), a frontmatter key and value hold ESC too.
      const text = `---\nname: "x\\e[2Jy"\ndescription: "Use when testing \\e]0;title\\a escapes."\n"k\\e[1mey": v\n---\nBody with a [link](missing\u001b[5m.md).\n`;
      fs.writeFileSync(path.join(root, name, 'SKILL.md'), text);
    }
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('validate (text): folder names and quoted values are escaped, no line is a workflow command', () => {
    const r = run(root, 'validate', ...Object.values(HOSTILE));
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    const all = r.stdout + r.stderr;
    for (const [what, out] of [['stdout', r.stdout], ['stderr', r.stderr]]) {
      assertClean(out, what);
      assert.doesNotMatch(out, /^::/m, `${what}: a line starts a workflow command`);
    }
    assert.match(all, /bad\\n::error file=README\.md,line=1::pwned/, 'the newline is shown as \\n');
    assert.match(all, /red\\e\[31mskill/, 'ESC is shown as \\e');
    assert.match(all, /ring\\x07bell/, 'BEL is shown as \\x07');
  });

  it('validate --format github: one workflow command per finding, ESC, BEL and line breaks escaped', () => {
    const r = run(root, 'validate', '--format', 'github', ...Object.values(HOSTILE));
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    assertClean(r.stdout, 'github');
    const lines = r.stdout.trimEnd().split('\n');
    const json = JSON.parse(run(root, 'validate', '--format', 'json', ...Object.values(HOSTILE)).stdout) as { diagnostics: unknown[] }[];
    assert.equal(lines.length, json.reduce((n, x) => n + x.diagnostics.length, 0), 'exactly one line per finding');
    for (const line of lines) assert.match(line, /^::(?:error|warning|notice) file=[^:]*,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=[^:]*::/, line);
    assert.match(r.stdout, /file=bad%0A%3A%3Aerror file=README\.md%2Cline=1%3A%3Apwned\/SKILL\.md/);
  });

  it('list, prompt and read-properties (text) escape names and values', () => {
    const list = run(root, 'list', '--no-defaults', '--root', root);
    assertClean(list.stdout + list.stderr, 'list');
    assert.doesNotMatch(list.stdout, /^::/m);
    const prompt = run(root, 'prompt', ...Object.values(HOSTILE));
    assertClean(prompt.stdout + prompt.stderr, 'prompt');
    // JSON escapes control characters itself.
    const props = run(root, 'read-properties', HOSTILE.ansiColour);
    assertClean(props.stdout + props.stderr, 'read-properties');
  });
});
