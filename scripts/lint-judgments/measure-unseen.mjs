// `node scripts/lint-judgments/measure-unseen.mjs [--list] [heldout-publishers.tsv]`: precision of the linter on the
// findings judged in unseen-publishers.tsv (skills outside realworld's judged set: realworld's unjudged findings,
// shared/corpus, and a fixed sample of the routing pool from publishers realworld does not hold), or in the file
// named (the held-out sample: its pool skills are rebuilt by id). Re-runs the built CLI on the same skills and
// prints, per rule, the judged findings and how many of them it still reports: precision (TP / (TP+FP)) of the
// judged findings then and now, and any judged-true finding no longer reported. A measurement for issue 25; the
// linter never reads this folder.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { realworldDir, runLinter } from '../lint-precision.mjs';
import { writeGithubSkills } from './github.mjs';
import { firstSample, here, judgedRows, poolByPublisher, poolSkillsNamed, root, shared, writeSkills } from './pool.mjs';

const cli = join(root, 'dist', 'cli.js');
const key = (rule, skill, file, line) => `${rule}\t${skill}\t${file}\t${line}`;

function validate(cwd, paths) {
  const r = spawnSync(process.execPath, [cli, 'validate', '--json', ...paths], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`validate exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
  return JSON.parse(r.stdout);
}

const named = process.argv.slice(2).find((a) => a.endsWith('.tsv'));
const judgedFile = named ? resolve(named) : join(here, 'unseen-publishers.tsv');
const rows = judgedRows(judgedFile);

const now = new Set();
const rw = realworldDir();
if (!rw) throw new Error('shared/realworld not found beside the checkout');
for (const f of runLinter(rw)) now.add(key(f.rule, f.skill, f.file, f.line));
const corpus = join(shared, 'corpus', 'anthropic-skills');
if (existsSync(corpus) && rows.some((r) => r.source === 'corpus/anthropic-skills')) {
  const names = rows.filter((r) => r.source === 'corpus/anthropic-skills').map((r) => r.skill);
  for (const res of validate(corpus, [...new Set(names)])) for (const d of res.diagnostics) now.add(key(d.rule, res.path, d.file ?? 'SKILL.md', d.range.start.line + 1));
}
const tmp = mkdtempSync(join(tmpdir(), 'lint-unseen-'));
try {
  // The first sample ('routing-pool') is redrawn by its seed; later samples ('routing-pool-heldout', '-fresh') by id.
  // GitHub snapshots ('github-fresh') by "owner/name@commit path", from the fetched snapshots (github.mjs).
  const github = new Set(rows.filter((r) => r.source === 'github-fresh').map((r) => r.skill));
  const named = new Set(rows.filter((r) => r.source.startsWith('routing-pool-')).map((r) => r.skill));
  const ids = github.size > 0 ? writeGithubSkills(tmp, [...github]) : writeSkills(tmp, named.size > 0 ? await poolSkillsNamed(named) : firstSample(await poolByPublisher()));
  for (const res of validate(tmp, [...ids.keys()])) for (const d of res.diagnostics) now.add(key(d.rule, ids.get(res.path), d.file ?? 'SKILL.md', d.range.start.line + 1));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const per = new Map();
const lost = [];
for (const r of rows) {
  const s = per.get(r.rule) ?? { TP: 0, FP: 0, DEBATABLE: 0, nowTP: 0, nowFP: 0, nowDEBATABLE: 0 };
  per.set(r.rule, s);
  s[r.verdict]++;
  const present = now.has(key(r.rule, r.skill, r.file, r.line));
  if (present) s[`now${r.verdict}`]++;
  else if (r.verdict === 'TP') lost.push(r);
}
const pct = (tp, fp) => (tp + fp === 0 ? '-' : `${((tp / (tp + fp)) * 100).toFixed(1)}%`);
console.log('rule                          judged TP/FP/DEB   still reported TP/FP/DEB   precision then -> now');
const total = { TP: 0, FP: 0, DEBATABLE: 0, nowTP: 0, nowFP: 0, nowDEBATABLE: 0 };
for (const [rule, s] of [...per].sort()) {
  for (const k of Object.keys(total)) total[k] += s[k];
  console.log(`${rule.padEnd(30)}${`${s.TP}/${s.FP}/${s.DEBATABLE}`.padStart(12)}${`${s.nowTP}/${s.nowFP}/${s.nowDEBATABLE}`.padStart(27)}   ${pct(s.TP, s.FP)} -> ${pct(s.nowTP, s.nowFP)}`);
}
console.log(`\nall: judged ${total.TP} TP, ${total.FP} FP, ${total.DEBATABLE} debatable; still reported ${total.nowTP} TP, ${total.nowFP} FP, ${total.nowDEBATABLE} debatable`);
console.log(`precision then ${pct(total.TP, total.FP)} (debatable as false ${pct(total.TP, total.FP + total.DEBATABLE)}), now ${pct(total.nowTP, total.nowFP)} (debatable as false ${pct(total.nowTP, total.nowFP + total.nowDEBATABLE)})`);
console.log(`judged-true findings no longer reported: ${lost.length}`);
if (process.argv.includes('--list') || lost.length <= 10) for (const r of lost) console.log(`  lost: ${r.rule} ${r.skill} ${r.file}:${r.line}`);
