// The routing pool (shared/routing/pool_full.jsonl.gz) as skills to lint: read by publisher, sampled with a seeded
// shuffle, written as SKILL.md folders. Used by measure-unseen.mjs and draw-fresh.mjs (issue 25); the linter never
// reads this folder.
import { createReadStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';

export const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '..', '..');
export const shared = process.env.AGENT_SKILLS_SHARED ? resolve(process.env.AGENT_SKILLS_SHARED) : resolve(root, '..', 'shared');

/** The publishers of the development set (realworld/ and shared/corpus): every pool sample leaves them out. */
export const SEEN = ['github/awesome-copilot', 'wshobson/agents', 'K-Dense-AI/claude-scientific-skills', 'getsentry/skills', 'UiPath/skills', 'expo/skills', 'obra/superpowers', 'antfu/skills', 'callstackincubator/agent-skills', 'anthropics/skills'];

/** The routing pool's skills with a body, grouped by publisher, without the development set's publishers. */
export async function poolByPublisher() {
  const by = new Map();
  const lines = createInterface({ input: createReadStream(join(shared, 'routing', 'pool_full.jsonl.gz')).pipe(createGunzip()) });
  for await (const l of lines) {
    const o = JSON.parse(l);
    if (!o.body || o.body.length < 50) continue;
    const repo = o.repo || (o.source || '').split('@')[0];
    if (SEEN.includes(repo)) continue;
    if (!by.has(repo)) by.set(repo, []);
    by.get(repo).push(o);
  }
  return by;
}

/** A seeded shuffle (the same linear congruential generator every sample here used), returning a new array. */
export function shuffled(arr, rnd) {
  const a = arr.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

export function seeded(seed) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648), s / 2147483648);
}

/** Writes each chosen pool skill as a SKILL.md from its name, description and body; returns folder → "repo id". */
export function writeSkills(dir, chosen) {
  const out = new Map();
  let n = 0;
  for (const [repo, o] of chosen) {
    const rel = `skills/${String(n++).padStart(3, '0')}-${(repo || 'unknown').replace(/[^a-zA-Z0-9._-]/g, '+')}`;
    mkdirSync(join(dir, rel), { recursive: true });
    writeFileSync(join(dir, rel, 'SKILL.md'), `---\nname: ${JSON.stringify(o.name)}\ndescription: ${JSON.stringify(o.description)}\n---\n${o.body}`);
    out.set(rel, `${repo} ${o.id}`);
  }
  return out;
}

/** The first sample (seed 20261127, up to 8 per publisher), as [repo, skill] pairs. */
export function firstSample(by) {
  const rnd = seeded(20261127);
  const chosen = [];
  for (const [repo, arr] of by) for (const o of shuffled(arr, rnd).slice(0, 8)) chosen.push([repo, o]);
  return chosen;
}

/** The pool skills named "repo id" in `wanted`, as [repo, skill] pairs. */
export async function poolSkillsNamed(wanted) {
  const chosen = [];
  for (const [repo, arr] of await poolByPublisher()) for (const o of arr) if (wanted.has(`${repo} ${o.id}`)) chosen.push([repo, o]);
  return chosen;
}

/** Rows of a judged tsv (comment lines and the header left out). */
export function judgedRows(file) {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).slice(1).map((l) => {
    const [source, rule, severity, skill, file_, line, verdict, note] = l.split('\t');
    return { source, rule, severity, skill, file: file_, line, verdict, note };
  });
}
