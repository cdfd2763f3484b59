// Cursor pagination for the list methods (`resources/list`, `skills/list`, `resources/directory/read`), as the
// MCP specification's pagination utility describes it: the server picks the page size, the cursor is opaque to
// the client, and a cursor the server did not issue for this list is an invalid-params error (-32602).
import { invalidParams } from './requestError';

/** One page of a list and the cursor of the next one (absent on the last page). */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** The list a cursor was issued for: a cursor of one list is refused by another. */
export type ListName = 'resources' | 'skills' | `dir:${string}`;

const CURSOR_VERSION = 1;
/** A cursor longer than this was not issued by us (they are a few dozen characters). */
const MAX_CURSOR_CHARS = 4096;

/** The opaque cursor of `list` at `offset` (base64url JSON; clients must not read it, and we check it). */
export function encodeCursor(list: ListName, offset: number): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, l: list, o: offset }), 'utf8').toString('base64url');
}

/** The offset a cursor stands for: 0 without one; -32602 naming the fix for anything we did not issue. */
export function decodeCursor(list: ListName, cursor: unknown, method: string): number {
  if (cursor === undefined) return 0;
  const bad = () => invalidParams(`${method}: the cursor is not one this server issued for this list (or it expired): start again without a cursor and follow nextCursor.`);
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  const c = v as { v?: unknown; l?: unknown; o?: unknown };
  if (typeof v !== 'object' || v === null || c.v !== CURSOR_VERSION || c.l !== list || typeof c.o !== 'number' || !Number.isSafeInteger(c.o) || c.o <= 0) throw bad();
  return c.o;
}

/**
 * The page of `all` that starts at the cursor: at most `maxItems` items, and (with `weight`) items whose
 * weights add up to at most `maxWeight`, though never fewer than one item, so an entry is never split.
 */
export function pageOf<T>(list: ListName, all: readonly T[], cursor: unknown, method: string, maxItems: number, weight?: (t: T) => number, maxWeight = Infinity): Page<T> {
  const start = decodeCursor(list, cursor, method);
  // A cursor past the end was issued when the list was longer (items went away since): an empty last page.
  const items: T[] = [];
  let load = 0;
  let i = start;
  for (; i < all.length && items.length < maxItems; i++) {
    const w = weight ? weight(all[i]) : 0;
    if (items.length && load + w > maxWeight) break;
    items.push(all[i]);
    load += w;
  }
  return i < all.length ? { items, nextCursor: encodeCursor(list, i) } : { items };
}
