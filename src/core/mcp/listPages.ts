// Following a paginated MCP list (`skills/list`, `resources/list`) from a server we do not control: page after page
// while it gives a `nextCursor`, but never more than a number of pages, items and bytes, never a cursor it gave
// before (a loop), and never a cursor longer than a cursor needs to be. What was read before a bound is kept; the
// bound that stopped the walk comes back as one problem naming the server, the list and the bound.

/** The most a walk may take. */
export interface PageBounds {
  pages: number;
  items: number;
  /** Total size of the items, measured as their JSON text. */
  bytes: number;
}

/** Longest cursor followed (an opaque token: a server needs far fewer characters). */
export const MAX_CURSOR_CHARS = 4096;

/** Reads pages through `page(cursor)`; stops at the first bound, keeping what came before it. */
export async function followPages<T>(server: string, list: string, bounds: PageBounds, page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>): Promise<{ items: T[]; problem?: string }> {
  const items: T[] = [];
  const seen = new Set<string>();
  let bytes = 0;
  let cursor: string | undefined;
  const stop = (why: string) => ({ items, problem: `MCP server '${server}': ${list} ${why}; the first ${items.length} item(s) are used. Tell the server's owner.` });
  for (let n = 0; ; n++) {
    if (n >= bounds.pages) return stop(`goes on past ${bounds.pages} pages`);
    const r = await page(cursor);
    for (const item of r.items) {
      bytes += JSON.stringify(item)?.length ?? 0;
      if (items.length >= bounds.items) return stop(`has more than ${bounds.items} items`);
      if (bytes > bounds.bytes) return stop(`is larger than ${bounds.bytes} bytes`);
      items.push(item);
    }
    const next = r.nextCursor;
    if (next === undefined || next === '') return { items };
    if (next.length > MAX_CURSOR_CHARS) return stop(`gave a cursor of ${next.length} characters (at most ${MAX_CURSOR_CHARS} are followed)`);
    if (seen.has(next)) return stop(`gave a cursor it had given before (page ${n + 2} would repeat an earlier page: a loop)`);
    seen.add(next);
    cursor = next;
  }
}
