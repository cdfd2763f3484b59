/** Reads the routing benchmark's data (../shared/routing, see its README) and builds its pools and metrics. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import type { SkillIndex } from '../../src/core/index/skillIndex';
import { unpack } from '../../src/core/index/postingLists';

export interface PoolSkill {
  id: string;
  name: string;
  description: string;
  body: string;
}

export interface RoutingTask {
  task_id: string;
  query: string;
  core_gt_ids: string[];
  relevance: Record<string, number>;
}

export const ROUTING_DIR = process.env.ROUTING_DIR ?? '/work/shared/routing';

export function routingDataPresent(): boolean {
  return fs.existsSync(path.join(ROUTING_DIR, 'pool_full.jsonl.gz'));
}

export function loadRouting(): { pool: Map<string, PoolSkill>; tasks: RoutingTask[]; distractors: string[] } {
  const pool = new Map<string, PoolSkill>();
  const text = zlib.gunzipSync(fs.readFileSync(path.join(ROUTING_DIR, 'pool_full.jsonl.gz'))).toString('utf8');
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const s = JSON.parse(line) as PoolSkill;
    pool.set(s.id, { id: s.id, name: s.name, description: s.description ?? '', body: s.body ?? '' });
  }
  const tasks = fs
    .readFileSync(path.join(ROUTING_DIR, 'tasks.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as RoutingTask)
    .map((t) => ({ ...t, core_gt_ids: t.core_gt_ids.filter((id) => pool.has(id)) }))
    .filter((t) => t.core_gt_ids.length > 0);
  const distractors = fs.readFileSync(path.join(ROUTING_DIR, 'distractor_order.txt'), 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
  return { pool, tasks, distractors };
}

/** The pool a task sees at size n (README "Pools"): its core skills plus the first n - k distractors. */
export function poolFor(task: RoutingTask, n: number, distractors: readonly string[]): string[] {
  return [...task.core_gt_ids, ...distractors.slice(0, n - task.core_gt_ids.length)];
}

/** Per-task metrics from a ranked id list (README "Metrics"). */
export function taskMetrics(task: RoutingTask, ranked: readonly string[], inPool: (id: string) => boolean): { hit1: number; hit5: number; recall20: number; ndcg10: number } {
  const core = new Set(task.core_gt_ids);
  const hitAt = (k: number) => (ranked.slice(0, k).some((id) => core.has(id)) ? 1 : 0);
  const recall20 = ranked.slice(0, 20).filter((id) => core.has(id)).length / core.size;
  const grades = Object.entries(task.relevance).filter(([id]) => inPool(id));
  const gain = (id: string) => task.relevance[id] ?? 0;
  let dcg = 0;
  ranked.slice(0, 10).forEach((id, i) => (dcg += (2 ** gain(id) - 1) / Math.log2(i + 2)));
  const ideal = grades.map(([, g]) => g).sort((a, b) => b - a).slice(0, 10);
  const idcg = ideal.reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0);
  return { hit1: hitAt(1), hit5: hitAt(5), recall20, ndcg10: idcg ? dcg / idcg : 0 };
}

/**
 * The IDF-weighted share of a skill's field-`field` words (0 name, 1 description) that `words` holds, phrases left
 * out (the experiments' string-keyed form of the product's coverage in src/core/index/searchOrder.ts).
 */
export function fieldShare(index: SkillIndex, id: string, words: ReadonlySet<string>, field: number): number {
  const doc = index.tokensOf(id);
  if (!doc) return 0;
  const vocab = index.vocabulary;
  let all = 0;
  let held = 0;
  for (let i = 0; i < doc.terms.length; i++) {
    if (unpack(doc.counts[i], field) === 0) continue;
    const term = vocab.termOf(doc.terms[i]);
    if (term.includes(' ')) continue;
    const w = index.idf(term);
    all += w;
    if (words.has(term)) held += w;
  }
  return all ? held / all : 0;
}
