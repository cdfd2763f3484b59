// The script-run scan (script-path-incomplete) tries its regex only near script extensions, for speed. This holds it
// to the plain way, the regex run over the whole text, over the real skills and over seeded random texts built from
// the fragments the regex reads (interpreters, options, names, extensions, delimiters, white space of every kind).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RUN_SCRIPT, scriptRunMatches } from '../../../src/core/skill/rules/scriptRunScan';
import { seededRandom } from '../../support/seededRandom';

const shared = path.resolve(__dirname, '../../../../shared');

/** The matches the plain way: the global regex over the whole text. */
function plain(text: string): [number, string, string][] {
  const re = new RegExp(RUN_SCRIPT.source, RUN_SCRIPT.flags);
  const out: [number, string, string][] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) out.push([m.index, m[0], m[1]]);
  return out;
}

const fast = (text: string): [number, string, string][] => scriptRunMatches(text).map((m) => [m.index, m[0], m[1]]);

function textFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) textFiles(p, out);
    else if (/\.(?:md|txt|sh|py)$/i.test(e.name)) out.push(p);
  }
  return out;
}

const FRAGMENTS = [
  'python', 'python3', 'python3.11', 'py', 'uv run', 'uv', 'run', 'poetry run python', 'poetry', 'node', 'deno run', 'bun', 'bun run',
  'tsx', 'ts-node', 'bash', 'sh', 'zsh', 'ruby', 'perl', 'Rscript', 'pwsh', 'powershell', 'powershell -File', '-File',
  '-u', '--opt', '--x=a.py', '-o=b.sh', '-', '--', '-=', '=', 'x.py', 'a.b.sh', 'check.js', 'run.mjs', 'y.ps1', 'z.R', 'w.rb', 'v.pl',
  'scripts/run.py', '.py', '.sh', 'run.PY', 'x.tsx', 'a-b_c.ts', 'x.py.js', '_.bash',
  ' ', ' ', '  ', '\n', '\r\n', '\t', '\u00a0', '\u2028', '\ufeff', '`', "'", '"', '|', ';', '&', ')', '(', '/', '.', 'a', '_', '$', '~',
];

describe('script-run scan: the same matches as the regex over the whole text', () => {
  it('on every text file of the corpus and the real-world skills', function () {
    if (!fs.existsSync(shared)) {
      console.log(`      (skipped: ${shared} is not there; the random texts below still run)`);
      this.skip();
    }
    const files = [...textFiles(path.join(shared, 'corpus')), ...textFiles(path.join(shared, 'realworld'))];
    let matches = 0;
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8');
      const want = plain(text);
      matches += want.length;
      assert.deepEqual(fast(text), want, f);
    }
    assert.ok(files.length > 500 && matches > 20, `${files.length} files, ${matches} matches: too few to compare`);
  });

  it('on 20,000 seeded random texts of the fragments the regex reads', () => {
    const rnd = seededRandom(23);
    let matches = 0;
    for (let i = 0; i < 20_000; i++) {
      const parts: string[] = [];
      const n = 1 + Math.floor(rnd() * 24);
      for (let j = 0; j < n; j++) parts.push(FRAGMENTS[Math.floor(rnd() * FRAGMENTS.length)]);
      const text = parts.join(rnd() < 0.5 ? '' : ' ');
      const want = plain(text);
      matches += want.length;
      assert.deepEqual(fast(text), want, JSON.stringify(text));
    }
    assert.ok(matches > 2000, `only ${matches} matches in the random texts: they do not exercise the scan`);
  });
});
