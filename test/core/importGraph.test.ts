// The import graph of src/ and server/, held against the layer order README.md states ("Layers"): no import runs
// from a lower layer up to a higher one, and no import circle at all (a type-only import counts: it ties the two
// files' meanings as much as a value import does). `require('./x')` and `import('./x')` count too.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sourceFiles, IMPORT_SPECIFIERS as SPECIFIERS, withoutComments } from '../support/sourceFiles';

const ROOT = path.resolve(__dirname, '../..');


/** The file a relative specifier names, or undefined when it names no .ts file of the tree (JSON, a package). */
function resolveSpecifier(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base]) {
    if (candidate.endsWith('.ts') && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** The layers README.md states between its `layers:begin` and `layers:end` markers, lowest first. */
export function readmeLayers(readme: string): string[][] {
  const m = readme.match(/<!-- layers:begin -->([\s\S]*?)<!-- layers:end -->/);
  if (!m) throw new Error('README.md has no <!-- layers:begin --> ... <!-- layers:end --> block');
  return m[1]
    .split('\n')
    .map((l) => l.match(/^\s*\d+\.\s+(.*)$/)?.[1])
    .filter((l): l is string => !!l)
    .map((l) => [...l.matchAll(/`([^`]+)`/g)].map((x) => x[1].replace(/\/$/, '')));
}

/** The layer of a file: the index of the entry that holds it (a folder or a file), undefined when none does. */
function layerOf(file: string, layers: string[][]): { layer: number; unit: string } | undefined {
  const rel = path.relative(ROOT, file).split(path.sep).join('/');
  let best: { layer: number; unit: string } | undefined;
  layers.forEach((units, layer) => {
    for (const u of units) if ((rel === u || rel.startsWith(`${u}/`)) && (!best || u.length > best.unit.length)) best = { layer, unit: u };
  });
  return best;
}

/** Every import edge between two files of the tree. */
export function importEdges(files: readonly string[]): [string, string][] {
  const edges: [string, string][] = [];
  for (const f of files) {
    for (const m of withoutComments(fs.readFileSync(f, 'utf8')).matchAll(SPECIFIERS)) {
      const target = resolveSpecifier(f, m[1]);
      if (target && target !== f) edges.push([f, target]);
    }
  }
  return edges;
}

/** Strongly connected components of more than one file (Tarjan), each sorted: the import circles. */
export function circles(nodes: readonly string[], edges: readonly [string, string][]): string[][] {
  const next = new Map<string, string[]>(nodes.map((n) => [n, []]));
  for (const [a, b] of edges) next.get(a)?.push(b);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  return out;
}

const rel = (f: string) => path.relative(ROOT, f).split(path.sep).join('/');

describe('import graph: the layer order of README.md, and no circles', () => {
  const files = [...sourceFiles(path.join(ROOT, 'src')), ...sourceFiles(path.join(ROOT, 'server'))];
  const edges = importEdges(files);
  const layers = readmeLayers(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));

  it('the checks find what they look for (a circle, an upward import, every import form, comments ignored)', () => {
    assert.deepEqual(circles(['a', 'b', 'c', 'd'], [['a', 'b'], ['b', 'c'], ['c', 'a'], ['c', 'd']]), [['a', 'b', 'c']]);
    assert.deepEqual(circles(['a', 'b'], [['a', 'b']]), []);
    const text = "import type { A } from './a';\nexport { B } from \"./b\";\nconst c = require('./c');\nawait import('./d');\n// import { E } from './e';\n/* import './f'; */";
    assert.deepEqual([...withoutComments(text).matchAll(SPECIFIERS)].map((m) => m[1]), ['./a', './b', './c', './d']);
    assert.deepEqual(readmeLayers('<!-- layers:begin -->\n1. `src/a/`, `src/b.ts`\n2. `src/c`\n<!-- layers:end -->'), [['src/a', 'src/b.ts'], ['src/c']]);
    assert.ok(edges.length > 300, `the tree was read (${edges.length} imports)`);
    assert.ok(layers.length >= 5, `README states the layers (${layers.length} found)`);
  });

  it('every file of src/ and server/ is in a layer README.md states', () => {
    assert.deepEqual(files.filter((f) => !layerOf(f, layers)).map(rel), []);
  });

  it('no import runs from a lower layer up to a higher one', () => {
    const upward = edges
      .map(([a, b]) => ({ a, b, la: layerOf(a, layers), lb: layerOf(b, layers) }))
      .filter((e) => e.la && e.lb && e.lb.layer > e.la.layer)
      .map((e) => `${rel(e.a)} (layer ${e.la!.layer + 1}, ${e.la!.unit}) imports ${rel(e.b)} (layer ${e.lb!.layer + 1}, ${e.lb!.unit})`);
    assert.deepEqual(upward, []);
  });

  it('no import circle', () => {
    assert.deepEqual(circles(files, edges).map((c) => c.map(rel).join(' -> ')), []);
  });
});
