// `node scripts/lint-judgments/rule-findings.mjs <rule> [--holdout N]`: every finding of one rule on all the skills the judged
// sets cover: realworld/, the first pool sample (unseen-publishers.tsv's), and the pool skills of
// heldout-publishers.tsv and fresh-publishers.tsv, rebuilt by id. For judging a new rule on every set at once
// (issue 25: command-undeclared); prints `set<TAB>skill<TAB>file:line<TAB>message`. With --holdout N, instead a
// sample none of those sets holds: up to N skills per pool publisher (seed 4242; `--seeds 4242,4243` draws a second
// holdout past the first), for judging a rule designed on them. With --github owner/name,… [--per N] [--seed S],
// instead skills of fetched GitHub snapshots (github.mjs; all of each repository's skills unless --per). The rule is
// turned on (at info) when it is off by default.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realworldDir, rulesOn, runLinter } from '../lint-precision.mjs';
import { drawGithub, writeGithubSkills } from './github.mjs';
import { firstSample, here, judgedRows, poolByPublisher, poolSkillsNamed, root, seeded, shuffled, writeSkills } from './pool.mjs';

const rule = process.argv[2];
if (!rule) throw new Error('usage: rule-findings.mjs <rule>');
const print = (set, skill, file, line, message) => console.log(`${set}\t${skill}\t${file}:${line}\t${message}`);
const by = await poolByPublisher();
const named = (tsv) => poolSkillsNamed(new Set(judgedRows(join(here, tsv)).map((r) => r.skill)));
let sets = [
  ['unseen', firstSample(by)],
  ['heldout', await named('heldout-publishers.tsv')],
  ['fresh', await named('fresh-publishers.tsv')],
];
const on = rulesOn([rule]);
const holdAt = process.argv.indexOf('--holdout');
const githubAt = process.argv.indexOf('--github');
if (githubAt >= 0) {
  const perAt = process.argv.indexOf('--per');
  const seedAt = process.argv.indexOf('--seed');
  sets = [['github', drawGithub(process.argv[githubAt + 1].split(','), perAt >= 0 ? Number(process.argv[perAt + 1]) : Infinity, seedAt >= 0 ? Number(process.argv[seedAt + 1]) : 1)]];
} else if (holdAt >= 0) {
  // Each seed of --seeds (default 4242) draws a new holdout, none of the skills drawn before; the last one is linted.
  const taken = new Set(sets.flatMap(([, chosen]) => chosen.map(([repo, o]) => `${repo} ${o.id}`)));
  const seedsAt = process.argv.indexOf('--seeds');
  let chosen = [];
  for (const seed of (seedsAt >= 0 ? process.argv[seedsAt + 1] : '4242').split(',').map(Number)) {
    const rnd = seeded(seed);
    chosen = [];
    for (const [repo, arr] of [...by].sort(([a], [b]) => a.localeCompare(b))) {
      if (!/^[\w.-]+\/[\w.-]+$/.test(repo)) continue;
      for (const o of shuffled(arr.filter((x) => !taken.has(`${repo} ${x.id}`)), rnd).slice(0, Number(process.argv[holdAt + 1]))) chosen.push([repo, o]);
    }
    for (const [repo, o] of chosen) taken.add(`${repo} ${o.id}`);
  }
  sets = [['holdout', chosen]];
} else for (const f of runLinter(realworldDir(), on)) if (f.rule === rule) print('realworld', f.skill, f.file, f.line, f.message);
for (const [set, chosen] of sets) {
  const dir = mkdtempSync(join(tmpdir(), 'lint-rule-'));
  try {
    const ids = set === 'github' ? writeGithubSkills(dir, chosen) : writeSkills(dir, chosen);
    const r = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), 'validate', '--json', ...on, ...ids.keys()], { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    if (r.status !== 0 && r.status !== 1) throw new Error(`validate exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
    for (const res of JSON.parse(r.stdout)) for (const d of res.diagnostics) if (d.rule === rule) print(set, ids.get(res.path), d.file ?? 'SKILL.md', d.range.start.line + 1, d.message);
    console.error(`${set}: ${ids.size} skills`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
