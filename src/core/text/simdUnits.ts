/**
 * UTF-16 code units of a text scanned eight at a time with WebAssembly SIMD: the first block that may hold an
 * invisible character (src/core/text/invisibleScan.ts), and every line start (TextIndex). A regular expression or
 * `indexOf` walks a two-byte string (any SKILL.md with an em dash) one unit at a time; copying the units into
 * WebAssembly memory (about 3 µs for 33 KB) and comparing 8 at a time costs a fraction of that.
 *
 * The module is assembled here from its instructions (below), so nothing is fetched or read from disk. Where
 * WebAssembly SIMD is missing, `simdUnits()` is null and callers use their plain JavaScript way.
 */

/** Texts shorter than this are scanned in JavaScript: copying them would cost more than it saves. */
export const SIMD_MIN_UNITS = 512;

/** The part of the WebAssembly API used here (the project's TypeScript libs do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}

interface Scanner {
  memory: WasmMemory;
  /** Byte offset of the first 16-byte block in [from, end) holding a unit of INVISIBLE_RANGES, or -1. */
  invisibleBlock: (fromByte: number, endByte: number) => number;
  /**
   * One pass over [from, end): writes, as i32 from `out + 4`, the unit offset after every line feed and returns
   * how many; stores at `out` the byte offset of the first block holding a unit of INVISIBLE_RANGES (-1: none).
   */
  scanText: (fromByte: number, endByte: number, outByte: number) => number;
  bytes: Buffer;
  /** The text whose units are in memory now, with what its pass found, so several scans of one text copy it once. */
  current?: { text: string; firstInvisible: number; newlines: number; out: number; starts?: number[] };
}

let scanner: Scanner | null | undefined;

/** The units of `text` in WebAssembly memory, or null where WebAssembly SIMD is missing. */
export interface SimdUnits {
  /** Unit offset of the first block (8 units) at or after `from` that holds a candidate invisible unit, or -1. */
  invisibleBlock(from: number): number;
  /** Every line start: 0, then the offset after each line feed. */
  lineStarts(): number[];
}

/**
 * The code units [start, start + count) that may start an invisible character (0xDB40 only before 0xDC00–0xDC7F):
 * zero-width and formatting characters, bidirectional controls, the high surrogate of tag characters.
 */
export const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0x00ad, 1],
  [0x180e, 1],
  [0x200b, 5],
  [0x202a, 5],
  [0x2060, 5],
  [0x2066, 4],
  [0xfeff, 1],
  [0xdb40, 1],
];

/** True where WebAssembly SIMD is there (the module assembles and validates). */
export function simdAvailable(): boolean {
  if (scanner === undefined) scanner = makeScanner();
  return scanner !== null;
}

/**
 * `text` in WebAssembly memory and one pass over it (line feeds, first candidate invisible block), or null where SIMD
 * is missing. Asking again for the same text costs nothing: its units and results stay until another text comes.
 */
export function simdUnits(text: string): SimdUnits | null {
  if (!simdAvailable()) return null;
  const s = scanner as Scanner;
  const textBytes = text.length * 2;
  let c = s.current;
  if (c?.text !== text) {
    // 16 zero bytes past the text, so the last 8-unit load reads no stale units of an earlier text; then the
    // pass's results: one i32 for the first invisible block, one per line feed.
    const out = (textBytes + 16 + 3) & ~3;
    const need = out + 4 * (text.length + 2);
    if (s.bytes.length < need) {
      s.memory.grow(Math.ceil((need - s.bytes.length) / 65536));
      s.bytes = Buffer.from(s.memory.buffer);
    }
    s.bytes.write(text, 0, 'utf16le');
    s.bytes.fill(0, textBytes, textBytes + 16);
    const newlines = s.scanText(0, textBytes, out);
    c = s.current = { text, firstInvisible: s.bytes.readInt32LE(out), newlines, out };
  }
  const found = c;
  return {
    invisibleBlock: (from) => {
      const first = found.firstInvisible;
      if (first < 0) return -1;
      if (from * 2 <= first) return first / 2;
      if (s.current !== found) return simdUnits(text)!.invisibleBlock(from);
      const hit = s.invisibleBlock(from * 2, textBytes);
      return hit < 0 ? -1 : hit / 2;
    },
    lineStarts: () => {
      if (!found.starts) {
        // The units may have been replaced by another text's meanwhile: then its pass runs again.
        if (s.current !== found) return simdUnits(text)!.lineStarts();
        const offsets = new Int32Array(s.memory.buffer, found.out + 4, found.newlines);
        const starts = new Array<number>(found.newlines + 1);
        starts[0] = 0;
        for (let i = 0; i < found.newlines; i++) starts[i + 1] = offsets[i];
        found.starts = starts;
      }
      return found.starts;
    },
  };
}

function makeScanner(): Scanner | null {
  try {
    const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    if (!wasm) return null;
    const bytes = moduleBytes();
    if (!wasm.validate(bytes)) return null;
    const instance = new wasm.Instance(new wasm.Module(bytes));
    const memory = instance.exports.memory as WasmMemory;
    return {
      memory,
      invisibleBlock: instance.exports.invisibleBlock as Scanner['invisibleBlock'],
      scanText: instance.exports.scanText as Scanner['scanText'],
      bytes: Buffer.from(memory.buffer),
    };
  } catch {
    return null;
  }
}

// --- The module. `invisibleBlock(from, end)`: the byte offset of the first 16-byte block in [from, end) holding a unit
// of INVISIBLE_RANGES, or -1; blocks whose units are all below 0xAD (plain ASCII) are skipped after one comparison.
// `scanText(from, end, out)`: the same first block (stored at `out`) and, for each block, a bitmask of its line feeds,
// each set bit's unit offset + 1 stored from `out + 4`; returns how many.

const I32 = 0x7f;
const V128 = 0x7b;
const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, depth],
  brIf: (depth: number) => [0x0d, depth],
  return: [0x0f],
  localGet: (i: number) => [0x20, i],
  localSet: (i: number) => [0x21, i],
  i32Store: [0x36, 0x02, 0x00],
  /** i32.store at offset 4: the line starts follow the first-invisible slot. */
  i32Store4: [0x36, 0x02, 0x04],
  i32Const: (n: number) => [0x41, ...sleb(n)],
  i32Eqz: [0x45],
  i32LtS: [0x48],
  i32GeU: [0x4f],
  i32Ctz: [0x68],
  i32Add: [0x6a],
  i32Sub: [0x6b],
  i32And: [0x71],
  i32Shl: [0x74],
  i32ShrU: [0x76],
  v128Load: [0xfd, 0x00, 0x00, 0x00],
  v128Const16: (n: number) => [0xfd, 0x0c, ...Array.from({ length: 8 }, () => [n & 0xff, n >> 8]).flat()],
  i16x8Eq: [0xfd, 0x2d],
  i16x8LtU: [0xfd, 0x30],
  i16x8GtU: [0xfd, 0x32],
  v128Or: [0xfd, 0x50],
  anyTrue: [0xfd, 0x53],
  i16x8Bitmask: [0xfd, 0x84, 0x01],
  i16x8Sub: [0xfd, 0x91, 0x01],
};

/** The block test: leaves an i32 on the stack, non-zero when a unit of local `v` is in INVISIBLE_RANGES. */
function invisibleTest(v: number): number[] {
  const test: number[] = [];
  INVISIBLE_RANGES.forEach(([start, count], i) => {
    test.push(...op.localGet(v));
    if (count === 1) test.push(...op.v128Const16(start), ...op.i16x8Eq);
    else test.push(...op.v128Const16(start), ...op.i16x8Sub, ...op.v128Const16(count), ...op.i16x8LtU);
    if (i > 0) test.push(...op.v128Or);
  });
  return [...test, ...op.anyTrue];
}

/** Leaves an i32 on the stack: non-zero when a unit of local `v` is above 0xAC (not plain ASCII). */
function beyondAscii(v: number): number[] {
  return [...op.localGet(v), ...op.v128Const16(0xac), ...op.i16x8GtU, ...op.anyTrue];
}

function invisibleBlockCode(): number[] {
  const [FROM, END, V] = [0, 1, 2];
  const code = [
    ...op.block,
    ...op.loop,
    ...op.localGet(FROM), ...op.localGet(END), ...op.i32GeU, ...op.brIf(1),
    ...op.localGet(FROM), ...op.v128Load, ...op.localSet(V),
    ...op.localGet(FROM), ...op.i32Const(16), ...op.i32Add, ...op.localSet(FROM),
    // No unit above 0xAC in this block: next block.
    ...beyondAscii(V), ...op.i32Eqz, ...op.brIf(0),
    ...invisibleTest(V),
    ...op.if, ...op.localGet(FROM), ...op.i32Const(16), ...op.i32Sub, ...op.return, ...op.end,
    ...op.br(0),
    ...op.end,
    ...op.end,
    ...op.i32Const(-1),
    ...op.end,
  ];
  return [0x01, 0x01, V128, ...code];
}

function scanTextCode(): number[] {
  const [FROM, END, OUT, N, MASK, BASE, FIRST, V] = [0, 1, 2, 3, 4, 5, 6, 7];
  const code = [
    ...op.i32Const(-1), ...op.localSet(FIRST),
    ...op.block,
    ...op.loop,
    ...op.localGet(FROM), ...op.localGet(END), ...op.i32GeU, ...op.brIf(1),
    ...op.localGet(FROM), ...op.v128Load, ...op.localSet(V),
    // The first block with a candidate invisible unit, while none is known.
    ...op.localGet(FIRST), ...op.i32Const(0), ...op.i32LtS,
    ...op.if,
    ...beyondAscii(V),
    ...op.if,
    ...invisibleTest(V),
    ...op.if, ...op.localGet(FROM), ...op.localSet(FIRST), ...op.end,
    ...op.end,
    ...op.end,
    ...op.localGet(V), ...op.v128Const16(10), ...op.i16x8Eq, ...op.i16x8Bitmask, ...op.localSet(MASK),
    // The unit after the block's first unit: a line feed at lane k starts a line at base + k.
    ...op.localGet(FROM), ...op.i32Const(1), ...op.i32ShrU, ...op.i32Const(1), ...op.i32Add, ...op.localSet(BASE),
    ...op.block,
    ...op.loop,
    ...op.localGet(MASK), ...op.i32Eqz, ...op.brIf(1),
    ...op.localGet(OUT), ...op.localGet(N), ...op.i32Const(2), ...op.i32Shl, ...op.i32Add,
    ...op.localGet(BASE), ...op.localGet(MASK), ...op.i32Ctz, ...op.i32Add,
    ...op.i32Store4,
    ...op.localGet(N), ...op.i32Const(1), ...op.i32Add, ...op.localSet(N),
    // Clear the lowest set bit.
    ...op.localGet(MASK), ...op.localGet(MASK), ...op.i32Const(1), ...op.i32Sub, ...op.i32And, ...op.localSet(MASK),
    ...op.br(0),
    ...op.end,
    ...op.end,
    ...op.localGet(FROM), ...op.i32Const(16), ...op.i32Add, ...op.localSet(FROM),
    ...op.br(0),
    ...op.end,
    ...op.end,
    ...op.localGet(OUT), ...op.localGet(FIRST), ...op.i32Store,
    ...op.localGet(N),
    ...op.end,
  ];
  // Locals after the three parameters: four i32 (n, mask, base, first), one v128.
  return [0x02, 0x04, I32, 0x01, V128, ...code];
}

function moduleBytes(): Uint8Array {
  const bodies = [invisibleBlockCode(), scanTextCode()];
  const name = (s: string) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    // Types: (i32, i32) -> i32 and (i32, i32, i32) -> i32.
    ...section(1, [0x02, 0x60, 0x02, I32, I32, 0x01, I32, 0x60, 0x03, I32, I32, I32, 0x01, I32]),
    ...section(3, [0x02, 0x00, 0x01]),
    ...section(5, [0x01, 0x00, 0x01]),
    ...section(7, [0x03, ...name('invisibleBlock'), 0x00, 0x00, ...name('scanText'), 0x00, 0x01, ...name('memory'), 0x02, 0x00]),
    ...section(10, [0x02, ...bodies.flatMap((b) => [...uleb(b.length), ...b])]),
  ]);
}

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
}
