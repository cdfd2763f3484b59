// Skills of publishers fetched as GitHub snapshots (issue 25, third pass): the routing pool had 4 publishers left
// that no judged set holds, so fresh publishers come from public repositories, whole skill folders (files and
// scripts too, unlike the pool's rebuilt SKILL.md). A skill is named "owner/name@commit path/to/skill". The
// snapshots live under /work/.mirror/owner+name/repo (the agent's `fetch`; GITHUB_MIRRORS names another folder).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { seeded, shuffled } from './pool.mjs';

const mirrors = process.env.GITHUB_MIRRORS ?? '/work/.mirror';

/** The git folder of a fetched snapshot of `repo` (owner/name), or undefined. */
export function mirrorOf(repo) {
  const dir = join(mirrors, repo.replace('/', '+'), 'repo');
  return existsSync(dir) ? dir : undefined;
}

/** The skill folders (paths holding a SKILL.md) of `repo` at `commit` (default HEAD, resolved). */
export function skillFolders(repo, commit = 'HEAD') {
  const git = mirrorOf(repo);
  if (!git) throw new Error(`no snapshot of ${repo} under ${mirrors}: fetch github:${repo} first`);
  const sha = execFileSync('git', ['-C', git, 'rev-parse', commit], { encoding: 'utf8' }).trim();
  const files = execFileSync('git', ['-c', 'core.quotePath=false', '-C', git, 'ls-tree', '-r', '--name-only', sha], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\n');
  const folders = files.filter((f) => f === 'SKILL.md' || f.endsWith('/SKILL.md')).map((f) => f.slice(0, -'SKILL.md'.length).replace(/\/$/, '') || '.');
  return { sha, folders };
}

/** Up to `per` skill folders of each repo, by a seeded shuffle: "owner/name@sha path" names. */
export function drawGithub(repos, per, seed) {
  const rnd = seeded(seed);
  const out = [];
  for (const repo of repos) {
    const { sha, folders } = skillFolders(repo);
    // A SKILL.md among another skill's reference files is one of its documents; a folder holding other skills
    // (a collection with a SKILL.md of its own) is left out, and its skills are drawn.
    const skills = folders.filter((f) => !/(?:^|\/)(?:references?|docs|assets|examples)\//.test(f));
    const tops = skills.filter((f) => !skills.some((g) => g !== f && (f === '.' || g.startsWith(`${f}/`))));
    for (const f of shuffled(tops.sort(), rnd).slice(0, per)) out.push(`${repo}@${sha} ${f}`);
  }
  return out;
}

/**
 * Writes each named skill folder under `dir` (its files at that commit); returns folder → name. A snapshot may lack
 * its largest files: each is written empty, so that references to it still resolve.
 */
export function writeGithubSkills(dir, names) {
  const out = new Map();
  let n = 0;
  for (const name of names) {
    const [at, path] = name.split(' ');
    const [repo, sha] = at.split('@');
    const git = mirrorOf(repo);
    // The folder keeps its own name (name-folder-mismatch reads it) under one numbered folder per skill.
    const base = path === '.' ? repo.split('/')[1] : path.slice(path.lastIndexOf('/') + 1);
    const rel = `skills/${String(n++).padStart(3, '0')}-${repo.replace('/', '+')}/${base}`;
    const tree = execFileSync('git', ['-c', 'core.quotePath=false', '-C', git, 'ls-tree', '-r', sha, ...(path === '.' ? [] : [`${path}/`])], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const entries = tree.split('\n').filter(Boolean).map((l) => { const [meta, file] = l.split('\t'); const [, type, obj] = meta.split(' '); return { type, obj, file }; }).filter((e) => e.type === 'blob');
    const batch = execFileSync('git', ['-C', git, 'cat-file', '--batch'], { input: entries.map((e) => e.obj).join('\n') + '\n', maxBuffer: 512 * 1024 * 1024 });
    let pos = 0;
    for (const e of entries) {
      const nl = batch.indexOf(10, pos);
      const head = batch.subarray(pos, nl).toString();
      const size = /^\S+ blob (\d+)$/.exec(head);
      const body = size ? batch.subarray(nl + 1, nl + 1 + Number(size[1])) : Buffer.alloc(0);
      pos = size ? nl + 2 + Number(size[1]) : nl + 1;
      const dest = join(dir, rel, path === '.' ? e.file : e.file.slice(path.length + 1));
      mkdirSync(dirname(dest), { recursive: true });
      writeFileSync(dest, body);
    }
    // A folder whose SKILL.md is a link or a submodule writes no file: nothing to lint.
    if (existsSync(join(dir, rel, 'SKILL.md'))) out.set(rel, name);
  }
  return out;
}
