/** Small helpers shared by the benchmarks: timing with warm-up, medians and ratio lines. */
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Bundles a source entry (relative to the repository) the way scripts/build.mjs bundles dist/ (platform
 * node, cjs, no keepNames) and loads it: the product ships that bundle, not the tsx-transformed sources
 * (tsx's keepNames wrapping alone costs ~0.5 us per call of a named function).
 */
export function loadBundled<T>(entry: string): T {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bundle-')), 'bundle.js');
  esbuild.buildSync({
    entryPoints: [path.join(__dirname, '../..', entry)],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: { js: "var __importMetaUrl = require('url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
    external: ['vscode'],
  });
  return createRequire(__filename)(out) as T;
}

export interface Sample {
  median: number;
  p50: number;
  p99: number;
  runs: number;
}

/** Times `fn` (sync or async) `runs` times after `warmup` runs; returns milliseconds. */
export async function measure(fn: () => unknown, runs = 20, warmup = 3): Promise<Sample> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return summarize(times);
}

export function summarize(times: number[]): Sample {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p50: at(0.5), p99: at(0.99), runs: sorted.length };
}

/** Prints `name: ratio x (ours ms vs baseline ms) goal ... PASS|MISS`. */
export function reportRatio(name: string, ours: number, baseline: number, goal: number): boolean {
  const ratio = ours / baseline;
  const ok = ratio <= goal;
  console.log(`${name}: ${ratio.toFixed(3)}x (${ours.toFixed(3)} ms vs baseline ${baseline.toFixed(3)} ms), goal <= ${goal}x: ${ok ? 'PASS' : 'MISS'}`);
  return ok;
}

/** Prints a difference goal: `name: +X ms (ours vs baseline) goal <= +G ms`. */
export function reportDelta(name: string, ours: number, baseline: number, goalMs: number): boolean {
  const d = ours - baseline;
  const ok = d <= goalMs;
  console.log(`${name}: ${d >= 0 ? '+' : ''}${d.toFixed(3)} ms (${ours.toFixed(3)} ms vs baseline ${baseline.toFixed(3)} ms), goal <= +${goalMs} ms: ${ok ? 'PASS' : 'MISS'}`);
  return ok;
}
