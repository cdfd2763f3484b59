/**
 * Finds the first code unit of a text that may start an invisible character (zero-width and formatting
 * characters, bidirectional controls, the high surrogate of Unicode tag characters), eight UTF-16 code
 * units at a time with WebAssembly SIMD.
 *
 * Why: a SKILL.md with one character beyond Latin-1 (an em dash) is a two-byte string, and a regular
 * expression with a character class walks it one unit at a time (about 25 µs for a 33 KB body, more than
 * parsing the frontmatter). Copying the units into WebAssembly memory and comparing 8 at a time costs about a
 * fifth of that. Where WebAssembly SIMD is missing, the same answer comes from a regular expression.
 *
 * The module is assembled here from its instructions (below), so nothing is fetched or read from disk.
 */

/**
 * Zero-width and formatting characters, bidirectional controls, and Unicode tag characters (U+E0000–E007F,
 * the surrogate pair starting 0xDB40), as a regular expression (global; callers set `lastIndex`).
 */
export const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;

/** The code units [start, start + count) that start an invisible character (0xDB40 only before 0xDC00–0xDC7F). */
const RANGES: readonly (readonly [number, number])[] = [
  [0x00ad, 1],
  [0x180e, 1],
  [0x200b, 5],
  [0x202a, 5],
  [0x2060, 5],
  [0x2066, 4],
  [0xfeff, 1],
  [0xdb40, 1],
];

/** True when an invisible character starts at offset `i` of `text`. */
function invisibleAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0xad) return false;
  if (c === 0xdb40) {
    const low = text.charCodeAt(i + 1);
    return low >= 0xdc00 && low <= 0xdc7f;
  }
  return RANGES.some(([start, count]) => c >= start && c < start + count);
}

/** Texts shorter than this are searched with the regular expression: copying them would cost more than it saves. */
const MIN_UNITS = 512;

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
  scan: (fromByte: number, endByte: number) => number;
  units: Buffer;
}

let scanner: Scanner | null | undefined;

/** Offset of the first invisible character of `text` at or after `from`, or -1. Linear in the text's length. */
export function invisibleIn(text: string, from = 0): number {
  if (text.length - from >= MIN_UNITS) {
    const s = scanner === undefined ? (scanner = makeScanner()) : scanner;
    if (s) return scanWith(s, text, from);
  }
  INVISIBLE.lastIndex = from;
  const m = INVISIBLE.exec(text);
  return m ? m.index : -1;
}

/** Which scan long texts get here: `simd`, or `regex` where WebAssembly SIMD is not available. */
export function invisibleScanKind(): 'simd' | 'regex' {
  if (scanner === undefined) scanner = makeScanner();
  return scanner ? 'simd' : 'regex';
}

function scanWith(s: Scanner, text: string, from: number): number {
  // 16 bytes past the text are zeroed, so the last 8-unit load reads no stale units of an earlier text.
  const need = text.length * 2 + 16;
  if (s.units.length < need) {
    s.memory.grow(Math.ceil((need - s.units.length) / 65536));
    s.units = Buffer.from(s.memory.buffer);
  }
  s.units.write(text, 0, 'utf16le');
  s.units.fill(0, text.length * 2, need);
  for (let byte = from * 2; ; byte += 16) {
    byte = s.scan(byte, text.length * 2);
    if (byte < 0) return -1;
    // The module reports the 8-unit block holding a candidate unit: check each (a lone 0xDB40 is no tag).
    for (let i = byte / 2; i < Math.min(byte / 2 + 8, text.length); i++) if (invisibleAt(text, i)) return i;
  }
}

function makeScanner(): Scanner | null {
  try {
    const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    if (!wasm) return null;
    const bytes = moduleBytes();
    if (!wasm.validate(bytes)) return null;
    const instance = new wasm.Instance(new wasm.Module(bytes));
    const memory = instance.exports.memory as WasmMemory;
    return { memory, scan: instance.exports.scan as Scanner['scan'], units: Buffer.from(memory.buffer) };
  } catch {
    return null;
  }
}

// --- The module: `scan(from, end)` returns the byte offset of the first 16-byte block in [from, end) that holds a
// unit of RANGES, or -1. Blocks whose units are all below 0xAD (plain ASCII) are skipped after one comparison.

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
  i32Const: (n: number) => [0x41, ...sleb(n)],
  i32Eqz: [0x45],
  i32GeU: [0x4f],
  i32Add: [0x6a],
  i32Sub: [0x6b],
  v128Load: [0xfd, 0x00, 0x00, 0x00],
  v128Const16: (n: number) => [0xfd, 0x0c, ...Array.from({ length: 8 }, () => [n & 0xff, n >> 8]).flat()],
  i16x8Eq: [0xfd, 0x2d],
  i16x8LtU: [0xfd, 0x30],
  i16x8GtU: [0xfd, 0x32],
  v128Or: [0xfd, 0x50],
  anyTrue: [0xfd, 0x53],
  i16x8Sub: [0xfd, 0x91, 0x01],
};

function moduleBytes(): Uint8Array {
  const [FROM, END, V] = [0, 1, 2];
  const test: number[] = [];
  RANGES.forEach(([start, count], i) => {
    test.push(...op.localGet(V));
    if (count === 1) test.push(...op.v128Const16(start), ...op.i16x8Eq);
    else test.push(...op.v128Const16(start), ...op.i16x8Sub, ...op.v128Const16(count), ...op.i16x8LtU);
    if (i > 0) test.push(...op.v128Or);
  });
  const code = [
    ...op.block,
    ...op.loop,
    ...op.localGet(FROM), ...op.localGet(END), ...op.i32GeU, ...op.brIf(1),
    ...op.localGet(FROM), ...op.v128Load, ...op.localSet(V),
    ...op.localGet(FROM), ...op.i32Const(16), ...op.i32Add, ...op.localSet(FROM),
    // No unit above 0xAC in this block: next block.
    ...op.localGet(V), ...op.v128Const16(0xac), ...op.i16x8GtU, ...op.anyTrue, ...op.i32Eqz, ...op.brIf(0),
    ...test, ...op.anyTrue,
    ...op.if, ...op.localGet(FROM), ...op.i32Const(16), ...op.i32Sub, ...op.return, ...op.end,
    ...op.br(0),
    ...op.end,
    ...op.end,
    ...op.i32Const(-1),
    ...op.end,
  ];
  const body = [0x01, 0x01, V128, ...code];
  const name = (s: string) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [0x01, 0x60, 0x02, I32, I32, 0x01, I32]),
    ...section(3, [0x01, 0x00]),
    ...section(5, [0x01, 0x00, 0x01]),
    ...section(7, [0x02, ...name('scan'), 0x00, 0x00, ...name('memory'), 0x02, 0x00]),
    ...section(10, [0x01, ...uleb(body.length), ...body]),
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
