// One path rule (src/core/paths): no other file of src/ or server/ decides "inside or outside" with a comparison of its
// own. Three shapes are looked for, each of which once stood beside the rule and disagreed with it:
// - a prefix comparison of paths (`p.startsWith(`${root}/`)`, `p.startsWith(root + path.sep)`);
// - `path.relative(...)` tested for a leading `..`, inline or through a variable (also one from `path.normalize`);
// - a path built from a base (`const t = path.resolve(base, rel)`) then tested lexically with `isInside(base, t)`:
//   the rule's resolveInRoot* does that and follows links, and its checkRelative refuses what a plain resolve accepts.
// The host layer sits below the rule and implements the file system's own semantics (renaming a folder into itself is
// EINVAL), so it is not asked to use it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lintFixtures } from '../../support/lintFixtures';
import { sourceFiles } from '../../support/sourceFiles';

const ROOT = path.resolve(__dirname, '../../..');
const RULE_HOME = 'src/core/paths/';
const BELOW_THE_RULE = 'src/core/host/';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The own-comparisons of one file's text, as short descriptions. */
export function ownComparisons(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\.startsWith\(\s*`\$\{([^}]+)\}(?:\/|\$\{path\.sep\})`\s*\)/g)) found.push(`startsWith(\`\${${m[1]}}/\`)`);
  for (const m of text.matchAll(/\.startsWith\(\s*([\w.]+)\s*\+\s*(?:path\.sep|'\/'|"\/")\s*\)/g)) found.push(`startsWith(${m[1]} + sep)`);
  if (/path\.relative\([^)]*\)\.startsWith\(\s*['"`]\.\./.test(text)) found.push("path.relative(...).startsWith('..')");
  for (const m of text.matchAll(/(?:const|let)\s+(\w+)\s*=\s*path(?:\.posix)?\.(?:normalize|relative)\(/g)) {
    if (new RegExp(`\\b${escape(m[1])}\\.startsWith\\(\\s*['"\`]\\.\\.`).test(text)) found.push(`${m[1]}.startsWith('..') on ${m[1]} = path.normalize/relative(...)`);
  }
  for (const m of text.matchAll(/(?:const|let)\s+(\w+)\s*=\s*path\.(?:resolve|join)\(\s*([\w.]+)\s*,/g)) {
    const [, target, base] = m;
    const check = new RegExp(`isInside\\(\\s*(?:path\\.resolve\\(\\s*)?${escape(base)}\\s*\\)?\\s*,\\s*${escape(target)}\\s*\\)`);
    if (check.test(text)) found.push(`isInside(${base}, ${target}) on ${target} = path.resolve(${base}, ...)`);
  }
  return found;
}

describe('one path rule: no file decides inside or outside with its own comparison', () => {
  it('recognises each shape (and leaves the rule\'s own helpers alone)', () => {
    assert.deepEqual(ownComparisons('if (p.startsWith(`${root}/`)) x();'), ['startsWith(`${root}/`)']);
    assert.deepEqual(ownComparisons('return abs.startsWith(base + path.sep);'), ['startsWith(base + sep)']);
    assert.deepEqual(ownComparisons("if (path.relative(a, b).startsWith('..')) no();"), ["path.relative(...).startsWith('..')"]);
    // The shape validatePortability had: `..notes.md` is a file of the skill, and this called it outside.
    assert.deepEqual(ownComparisons("const t = path.posix.normalize(path.posix.join(dir, w));\nif (t.startsWith('..')) continue;"), ["t.startsWith('..') on t = path.normalize/relative(...)"]);
    assert.deepEqual(ownComparisons('const abs = path.resolve(base, rel);\nif (!isInside(base, abs)) return;'), ['isInside(base, abs) on abs = path.resolve(base, ...)']);
    assert.deepEqual(ownComparisons('const r = resolveInRoot(base, rel);\nif (!r.ok) return;\nif (isInside(a, b)) y();'), []);
  });

  it('no file of src/ or server/ outside src/core/paths (and the host below it) has one', () => {
    const files = [...sourceFiles(path.join(ROOT, 'src')), ...sourceFiles(path.join(ROOT, 'server'))];
    assert.ok(files.length > 100, `the tree was read (${files.length} files)`);
    const offenders = files
      .map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
      .filter((rel) => !rel.startsWith(RULE_HOME) && !rel.startsWith(BELOW_THE_RULE))
      .flatMap((rel) => ownComparisons(fs.readFileSync(path.join(ROOT, rel), 'utf8')).map((c) => `${rel}: ${c}`));
    assert.deepEqual(offenders, []);
  });

  it('there is one function named resolveInside (edit and exec each had one, meaning different things)', () => {
    const files = [...sourceFiles(path.join(ROOT, 'src')), ...sourceFiles(path.join(ROOT, 'server'))];
    const defs = files.filter((f) => /export (?:async )?function resolveInside\b/.test(fs.readFileSync(f, 'utf8')));
    assert.ok(defs.length <= 1, defs.map((f) => path.relative(ROOT, f)).join(', '));
  });

  describe("the validator follows the rule for links of a skill's other Markdown files", () => {
    const fx = lintFixtures('one-path-rule-');
    it('`..notes.md` is a file of the skill (a missing one is reported); `../../x.md` leaves it (not checked)', async () => {
      const guide = '# Guide\n\nSee [notes](../..notes.md) and [upstream](../../upstream.md).\n';
      const dir = fx.skill({ 'SKILL.md': 'Read [the guide](references/guide.md).\n', 'references/guide.md': guide });
      assert.deepEqual(await fx.lint(dir, undefined, 'reference-missing'), ['reference-missing@references/guide.md:3']);
      fs.writeFileSync(path.join(dir, '..notes.md'), '# Notes\n');
      assert.deepEqual(await fx.lint(dir, undefined, 'reference-missing'), []);
    });
  });
});
