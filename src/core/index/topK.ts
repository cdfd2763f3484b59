/** Top-k selection with a bounded heap: the best k of many scored items without sorting them all. */

/** The first `k` of the first `count` of `items` under `cmp`, in order, without sorting them all. */
export function selectTop(items: ArrayLike<number>, count: number, k: number, cmp: (a: number, b: number) => number): number[] {
  const heap: number[] = [];
  // A max-heap on "worse": the root is the worst of the best k so far.
  const worse = (a: number, b: number) => cmp(a, b) > 0;
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l], heap[m])) m = l;
      if (r < heap.length && worse(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (let i = 0; i < count; i++) {
    const x = items[i];
    if (heap.length < k) {
      heap.push(x);
      up(heap.length - 1);
    } else if (cmp(x, heap[0]) < 0) {
      heap[0] = x;
      down(0);
    }
  }
  return heap.sort(cmp);
}

/**
 * `items` in order under `cmp`, computed as far as they are read: a heap is built in linear time and each item
 * read costs log n, so reading the first k of n costs n + k log n instead of sorting all n. Stable, as a sort
 * is: items `cmp` calls equal come in their order in `items`.
 */
export function* inOrder<T>(items: readonly T[], cmp: (a: T, b: T) => number): Generator<T> {
  let n = items.length;
  const heap = new Int32Array(n);
  for (let i = 0; i < n; i++) heap[i] = i;
  const before = (a: number, b: number) => (cmp(items[a], items[b]) || a - b) < 0;
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && before(heap[l], heap[m])) m = l;
      if (r < n && before(heap[r], heap[m])) m = r;
      if (m === i) return;
      const t = heap[i];
      heap[i] = heap[m];
      heap[m] = t;
      i = m;
    }
  };
  for (let i = (n >> 1) - 1; i >= 0; i--) down(i);
  while (n > 0) {
    const top = heap[0];
    heap[0] = heap[--n];
    down(0);
    yield items[top];
  }
}
