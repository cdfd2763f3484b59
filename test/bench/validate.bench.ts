// Validating one real SKILL.md (parse + every in-file rule + body reference extraction, no I/O) vs a bare
// `yaml.parse` of its frontmatter; goal <= 1.3x. Parsing goes through parseSkillText, as readSkillDir does
// (simple frontmatter takes the registry's fast path). Also printed, for information: the same with the
// YAML-library parser forced (the path complex frontmatter takes), and the full async validation with
// the file checks (reference existence, secret scan over every text file of the skill).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import type * as Skill from '../../src/core/skill';
import type { ParsedSkillFile } from '../../src/core/skill';
import { loadBundled, measure, reportRatio } from './benchUtil';

// The validator measured is the esbuild bundle of src/core/skill, as scripts/build.mjs builds dist/ (the product
// ships that bundle, not the tsx-transformed sources, whose keepNames wrapping costs on every call).
const { extractBodyReferences, parseSkillFile, parseSkillText, TextIndex, validateSkill, validateSkillContent } = loadBundled<typeof Skill>('src/core/skill/index.ts');

const repoRoot = path.resolve(__dirname, '../..');
const skillDir = path.resolve(repoRoot, '../shared/corpus/anthropic-skills/skill-creator');
const text = readFileSync(path.join(skillDir, 'SKILL.md'), 'utf8');
const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---\r?$/m.exec(text)?.[1] ?? '';
const BATCH = 200;
const ROUNDS = 15;

function baseline(): unknown {
  let last: unknown;
  for (let i = 0; i < BATCH; i++) last = parse(frontmatter);
  return last;
}

function validateWith(parseText: (t: string) => ParsedSkillFile): () => unknown {
  return () => {
    let last: unknown;
    for (let i = 0; i < BATCH; i++) {
      const parsed = parseText(text);
      const index = new TextIndex(text);
      const v = validateSkillContent({ parsed, folderName: 'skill-creator', index });
      last = [v, extractBodyReferences(parsed, { index })];
    }
    return last;
  };
}

/** Interleaves rounds of baseline and candidate (so load drift hits both) and keeps the round with the median ratio. */
async function ratioOf(candidate: () => unknown): Promise<{ ours: number; base: number }> {
  const rounds: { ours: number; base: number; r: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const b = await measure(baseline, 10, 2);
    const o = await measure(candidate, 10, 2);
    rounds.push({ ours: o.median / BATCH, base: b.median / BATCH, r: o.median / b.median });
  }
  rounds.sort((a, b) => a.r - b.r);
  return rounds[Math.floor(rounds.length / 2)];
}

async function main(): Promise<void> {
  console.log(`skill-creator/SKILL.md: ${text.length} characters, frontmatter ${frontmatter.length}; ${ROUNDS} interleaved rounds of batches of ${BATCH}, median-ratio round shown`);
  const fast = await ratioOf(validateWith(parseSkillText));
  const ok = reportRatio('validate one SKILL.md (in-file rules) vs yaml.parse of its frontmatter', fast.ours, fast.base, 1.3);
  const slow = await ratioOf(validateWith(parseSkillFile));
  console.log(`info: same with the YAML-library parser forced: ${(slow.ours / slow.base).toFixed(3)}x (${slow.ours.toFixed(3)} ms vs ${slow.base.toFixed(3)} ms)`);
  const full = await measure(() => validateSkill({ parsed: parseSkillText(text), folderName: 'skill-creator', rootDir: skillDir }), 20, 3);
  console.log(`info: full validateSkill with file checks (reference existence + secret scan of every text file): ${full.median.toFixed(3)} ms median`);
  process.exitCode = ok ? 0 : 1;
}

void main();
