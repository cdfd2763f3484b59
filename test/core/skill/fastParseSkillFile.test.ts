import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fastParseSkillFile } from '../../../src/core/skill/fastParseSkillFile';
import { parseSkillFile } from '../../../src/core/skill/parseSkillFile';
import type { FrontmatterField, ParsedSkillFile } from '../../../src/core/skill/skillTypes';
import { validateSkillContent } from '../../../src/core/skill/validateSkill';
import { seededRandom } from '../../support/seededRandom';

/** A field as a plain object, its ranges read through whatever getters it has. */
function plainField(f: FrontmatterField): FrontmatterField {
  const out: FrontmatterField = { key: f.key, keyRange: f.keyRange, valueRange: f.valueRange, kind: f.kind, value: f.value };
  if (f.style !== undefined) out.style = f.style;
  if (f.children !== undefined) out.children = f.children.map(plainField);
  return out;
}

/** The lazy-range parse of `text` equals the eager one once its ranges are read, and gives the same findings. */
function assertLazySame(text: string): void {
  const eager = fastParseSkillFile(text);
  const lazy = fastParseSkillFile(text, true);
  assert.equal(!!lazy, !!eager, JSON.stringify(text));
  if (!eager || !lazy) return;
  const plain = (p: ParsedSkillFile) => ({ ...p, fields: p.fields.map(plainField) });
  assert.deepStrictEqual(plain(lazy), plain(eager), `lazy ranges differ for ${JSON.stringify(text)}`);
  for (const folderName of ['x', 'pdf', 'other']) {
    for (const mode of ['lenient', 'strict'] as const) {
      const v = (parsed: ParsedSkillFile) => validateSkillContent({ parsed, folderName, fileName: 'SKILL.md' }, { mode });
      assert.deepStrictEqual(v(lazy), v(eager), `findings differ with lazy ranges for ${JSON.stringify(text)} (${mode}, ${folderName})`);
    }
  }
}

const CORPUS = '/work/shared/corpus/anthropic-skills';

const simple = [
  '---\nname: pdf\ndescription: Extracts text from PDFs. Use when a PDF is mentioned.\n---\n\n# PDF\n\n---\n\nMore body.\n',
  '---\r\nname: a-b\r\ndescription: Hello there\r\nmetadata:\r\n  version: 1.0\r\n  author: x\r\n---\r\n\r\n# Body\r\n',
  '---\nname: x\ndescription: uses a:b and c#d and 50% off\nlicense: Apache-2.0\nallowed-tools: Read Grep Bash(git:*)\n---\n',
  '---\nname: ünïcödé\ndescription: 中文描述 — with dashes\nversion: 1.0\nuser-invocable: true\n---\nbody',
  '---\nname: x\ndescription: y\n---\t\nbody\n',
  '---\nname: x\n--- \t\nbody',
  '---\nname: x\nmetadata:\n  a: 1\n  b: two words\n---\nbody',
  '---\nname: x\nmetadata:\n  a: 1\ndescription: y\n---\n',
  '---\nname: x\n---\n' + 'a'.repeat(5000) + '\r\n', // a CRLF past the first 4096 characters does not make the file CRLF
];


const tricky = [
  '---  \nname: x\ndescription: y\n---\nbody\n',
  '\uFEFF---\nname: x\ndescription: y\n---\n',
  '\n---\nname: x\ndescription: y\n---\n',
  '---\nname: "quoted"\ndescription: y\n---\n',
  "---\nname: 'single'\ndescription: y\n---\n",
  '---\nname: x\ndescription: >\n  folded\n  text\n---\n',
  '---\nname: x\ndescription: |\n  literal\n---\n',
  '---\nname: x\ndescription: a: b\n---\n',
  '---\nname: x\ndescription: y # comment\n---\n',
  '---\nname: x\n# comment\ndescription: y\n---\n',
  '---\nname: x\nname: y\n---\n',
  '---\nname: x\ndescription: y\n---',
  '---\nname: x\ndescription: y\n',
  '---\nname: x\ndescription:\n---\n',
  '---\nname: x\nallowed-tools:\n  - Read\n  - Grep\n---\n',
  '---\nname: x\nmetadata:\n  nested:\n    deep: 1\n---\n',
  '---\nname: x\nmetadata:\n  a: 1\n  a: 2\n---\n',
  '---\nname: &anchor x\ndescription: *anchor\n---\n',
  '---\nname: [a, b]\n---\n',
  '---\nname: x \ndescription: trailing space\n---\n',
  '---\nname: x\ndescription: tab\there\n---\n',
  '---\nname: x\r\ndescription: mixed endings\n---\n',
  '---\n\nname: x\n---\n',
  '---\nname: x\ndescription: y\n...\n---\n',
  '---\n__proto__: x\n---\n',
  '---\n---\n',
  'no frontmatter\n',
  '---\nname: x\ndescription: ends with colon:\n---\n',
  '---\nname: x\ndescription: -starts with dash\n---\n',
  '---\nname: x\ndescription: line\u2028sep\n---\n',
  '---\nname:x\n---\n',
  '---\nname:: x\n---\n',
  '---\n name: x\n---\n',
  '---\nmetadata:\n   a: 1\n---\n',
  '---\nmetadata:\n  a:\n---\n',
  '---\nmetadata:\n  a:1\n---\n',
  '---\nmetadata:\n---\n',
  '---\nname: x\n\n---\n',
  '---\nname: x\n---\nbody\r\nwith a CRLF\r\n',
  '---\r\nname: x\r\n---\nbody\n',
  '---\r\nname: x\n---\r\n',
  '---\rname: x\n---\n',
  '---\nname: x\n----\n',
  '---\n1name: x\n---\n',
  '---\nna.me: x\n---\n',
  '---\nname: x\n' + 'a'.repeat(5000) + '\r\n',
];

describe('fastParseSkillFile', () => {
  it('handles simple frontmatter and returns exactly what parseSkillFile returns', () => {
    for (const text of simple) {
      const fast = fastParseSkillFile(text);
      assert.ok(fast, `fast path should accept ${JSON.stringify(text)}`);
      assert.deepStrictEqual(fast, parseSkillFile(text), JSON.stringify(text));
    }
  });

  it('with lazy ranges gives the same fields, ranges and validator findings as the eager parse', () => {
    const withFindings = [
      '---\nname: Bad--Name\ndescription: has <b>xml</b>\nversion: 1.0\nfoo: bar\nuser-invocable: maybe\n---\nbody\n',
      '---\nname: x\nmetadata:\n  a: 1\n  b: two\ncompatibility: ' + 'c'.repeat(600) + '\n---\n',
      '---\ndescription: ' + 'd'.repeat(1100) + '\nallowed-tools: Read\n---\n',
      '---\nname: claude-helper\n---\n' + 'line\n'.repeat(600),
      '---\r\nname: x\r\nmetadata:\r\n  v: 1\r\nhooks: y\r\n---\r\nbody\r\n',
    ];
    for (const text of [...simple, ...tricky, ...withFindings]) assertLazySame(text);
  });

  it('declines anything beyond simple plain scalars, or matches the full parser exactly', () => {
    for (const text of tricky) {
      const fast = fastParseSkillFile(text);
      if (fast) assert.deepStrictEqual(fast, parseSkillFile(text), `fast path differs for ${JSON.stringify(text)}`);
    }
    const declined = tricky.filter((t) => !fastParseSkillFile(t)).length;
    assert.ok(declined >= tricky.length - 2, `declined only ${declined} of ${tricky.length}`);
  });

  it('matches the full parser on seeded random frontmatter built from simple and hostile pieces', () => {
    // Seeded, so a failure names a reproducible case.
    const rnd = seededRandom(20261122);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    const keys = ['name', 'description', 'license', 'metadata', 'allowed-tools', 'x_y', 'A-1', '1a', 'na me', '__proto__', ''];
    const values = ['pdf', 'two words', 'a:b', 'a: b', 'x #y', 'x#y', '"q"', "'q'", '-x', 'x-', 'x:', ' x', 'x ', '', '1.0', 'true', '[a]', '{a: b}', '&a x', '*a', '!t x', '|', '>', '~', 'null', 'ü', 'a\tb', '---', '...', '%x', '@x', '`x', '=', '==', '\u2028', 'a\u0085b'];
    // Sometimes several pieces in one value, so long values (checked differently from short ones) are hostile too.
    const valueOf = (): string => (rnd() < 0.3 ? Array.from({ length: 2 + Math.floor(rnd() * 5) }, () => pick(values)).join(pick([' ', '', 'word '])) : pick(values));
    const lineOf = (): string => {
      switch (Math.floor(rnd() * 8)) {
        case 0:
          return `${pick(keys)}:`;
        case 1:
          return `  ${pick(keys)}: ${valueOf()}`;
        case 2:
          return pick(['', ' ', '#c', '- item', '  - item', '   a: 1', '  a:', '--- ', '---\t']);
        default:
          return `${pick(keys)}: ${valueOf()}`;
      }
    };
    let accepted = 0;
    for (let i = 0; i < 5000; i++) {
      const eol = rnd() < 0.2 ? '\r\n' : '\n';
      const lines = ['---', ...Array.from({ length: 1 + Math.floor(rnd() * 5) }, lineOf), pick(['---', '--- ', '...', '---'])];
      const text = lines.join(eol) + eol + pick(['', 'body', '# T\n\n---\n\nmore\n', 'crlf\r\nbody\r\n']);
      const fast = fastParseSkillFile(text);
      if (!fast) continue;
      accepted++;
      assert.deepStrictEqual(fast, parseSkillFile(text), JSON.stringify(text));
      if (i % 10 === 0) assertLazySame(text);
    }
    assert.ok(accepted > 50, `fast path accepted only ${accepted} generated files`);
  });

  it('matches the full parser on every SKILL.md of the corpus it accepts', function () {
    if (!fs.existsSync(CORPUS)) this.skip();
    let accepted = 0;
    for (const dir of fs.readdirSync(CORPUS)) {
      const file = path.join(CORPUS, dir, 'SKILL.md');
      if (!fs.existsSync(file)) continue;
      const text = fs.readFileSync(file, 'utf8');
      for (const variant of [text, text.replace(/\n/g, '\r\n')]) {
        const fast = fastParseSkillFile(variant);
        if (fast) {
          accepted++;
          const full = parseSkillFile(variant);
          assert.deepStrictEqual(fast, full, file);
          assertLazySame(variant);
          for (const mode of ['lenient', 'strict'] as const) {
            const v = (parsed: typeof full) => validateSkillContent({ parsed, folderName: dir, fileName: 'SKILL.md' }, { mode });
            assert.deepStrictEqual(v(fast), v(full), `validator findings differ for ${file} (${mode})`);
          }
        }
      }
    }
    // Most of the corpus is simple; the fast path must actually be exercised by real files.
    assert.ok(accepted >= 10, `fast path accepted only ${accepted} corpus variants`);
  });
});
