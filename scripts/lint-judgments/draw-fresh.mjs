// `node scripts/lint-judgments/draw-fresh.mjs [--per N] [--seed S] [--keep DIR]`: draws a sample of the routing pool
// from publishers that no judged set holds (not realworld's or the corpus's publishers, no publisher with a row in
// any scripts/lint-judgments/*.tsv, none of the first sample's skills), runs the built CLI (lenient, default host)
// on it and prints every warning and info as an unjudged tsv row (source 'routing-pool-fresh'), with the message,
// for judging by hand. Issue 25: the sample behind fresh-publishers.tsv (seed 1128, up to 10 per publisher).
// `--github owner/name,…` draws instead from fetched GitHub snapshots of those publishers (github.mjs; source
// 'github-fresh', whole skill folders); `--on rule,…` turns on rules that are off by default, at info.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rulesOn } from '../lint-precision.mjs';
import { drawGithub, writeGithubSkills } from './github.mjs';
import { firstSample, here, judgedRows, poolByPublisher, root, seeded, shuffled, writeSkills } from './pool.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const per = Number(arg('--per', '10'));
const seed = Number(arg('--seed', '1128'));
const keep = arg('--keep', undefined);
const github = arg('--github', undefined)?.split(',');
const on = arg('--on', undefined)?.split(',');

const judged = new Set();
for (const f of readdirSync(here).filter((n) => n.endsWith('.tsv'))) {
  for (const r of judgedRows(join(here, f))) if (r.source.startsWith('routing-pool')) judged.add(r.skill.split(' ')[0]);
}
const by = github ? new Map() : await poolByPublisher();
const first = new Set(firstSample(by).map(([repo, o]) => `${repo} ${o.id}`));
const rnd = seeded(seed);
const chosen = [];
for (const [repo, arr] of [...by].sort(([a], [b]) => a.localeCompare(b))) {
  // A publisher is an owner/name repository; the pool's few hand-made entries without one are left out.
  if (judged.has(repo) || !/^[\w.-]+\/[\w.-]+$/.test(repo)) continue;
  const fresh = arr.filter((o) => !first.has(`${repo} ${o.id}`));
  for (const o of shuffled(fresh, rnd).slice(0, per)) chosen.push([repo, o]);
}
const dir = keep ?? mkdtempSync(join(tmpdir(), 'lint-fresh-'));
try {
  const ids = github ? writeGithubSkills(dir, drawGithub(github, per, seed)) : writeSkills(dir, chosen);
  const r = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), 'validate', '--json', ...(on ? rulesOn(on) : []), ...ids.keys()], { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`validate exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
  console.log('source\trule\tseverity\tskill\tfile\tline\tverdict\tnote\tmessage');
  for (const res of JSON.parse(r.stdout)) {
    for (const d of res.diagnostics) {
      console.log([github ? 'github-fresh' : 'routing-pool-fresh', d.rule, d.severity, ids.get(res.path), d.file ?? 'SKILL.md', d.range.start.line + 1, '', '', d.message.replace(/\s+/g, ' ')].join('\t'));
    }
  }
  console.error(`${ids.size} skills from ${github ? github.length : new Set(chosen.map(([r]) => r)).size} publishers${keep ? `, kept in ${dir}` : ''}`);
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
