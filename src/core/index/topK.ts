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
