// Cursor pagination for the list methods (`resources/list`, `skills/list`, `resources/directory/read`), as the
// MCP specification's pagination utility describes it: the server picks the page size, the cursor is opaque to
// the client, and a cursor the server did not issue for this list is an invalid-params error (-32602).
import { createHash } from 'node:crypto';
import { lowerBound } from '../../core/text/lowerBound';
import { invalidParams } from './requestError';

/** One page of a list and the cursor of the next one (absent on the last page). */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** The list a cursor was issued for: a cursor of one list is refused by another. */
export type ListName = 'resources' | 'skills' | `dir:${string}`;

const CURSOR_VERSION = 2;
/** A cursor longer than this was not issued by us (they are a few dozen characters, a few hundred with a long path). */
const MAX_CURSOR_CHARS = 4096;

/**
 * Where a cursor resumes: the offset it was issued at and the key of the item just before it (the last one the
 * client was given), as the key itself (`k`) or, for a key too long to carry, its digest (`h`).
 */
interface CursorAt {
  o: number;
  k?: string;
  h?: string;
}

const digestOf = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 22);
const encode = (v: object) => Buffer.from(JSON.stringify(v), 'utf8').toString('base64url');

/** The opaque cursor of `list` at `offset`, after the item of key `lastKey` (base64url JSON; clients must not read it, and we check it). */
export function encodeCursor(list: ListName, offset: number, lastKey?: string): string {
  if (lastKey === undefined) return encode({ v: CURSOR_VERSION, l: list, o: offset });
  const whole = encode({ v: CURSOR_VERSION, l: list, o: offset, k: lastKey });
  return whole.length <= MAX_CURSOR_CHARS ? whole : encode({ v: CURSOR_VERSION, l: list, o: offset, h: digestOf(lastKey) });
}

/** Where a cursor resumes: offset 0 without one; -32602 naming the fix for anything we did not issue. */
export function decodeCursor(list: ListName, cursor: unknown, method: string): CursorAt {
  if (cursor === undefined) return { o: 0 };
  const bad = () => invalidParams(`${method}: the cursor is not one this server issued for this list (or it expired): start again without a cursor and follow nextCursor.`);
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  const c = v as { v?: unknown; l?: unknown; o?: unknown; k?: unknown; h?: unknown };
  if (typeof v !== 'object' || v === null || c.v !== CURSOR_VERSION || c.l !== list || typeof c.o !== 'number' || !Number.isSafeInteger(c.o) || c.o <= 0) throw bad();
  if ((c.k !== undefined && typeof c.k !== 'string') || (c.h !== undefined && (typeof c.h !== 'string' || c.h.length !== 22))) throw bad();
  return { o: c.o, ...(typeof c.k === 'string' ? { k: c.k } : {}), ...(typeof c.h === 'string' ? { h: c.h } : {}) };
}

/**
 * The index a cursor's page starts at in `all` as it is now. The list may have changed since the cursor was given
 * (a skill added or removed in a watched folder): an offset alone would then skip the item after the last one
 * given, or give one twice. So the page starts after the item the cursor names: found where it was (nothing
 * moved), else by its key (`keyOf` ascends in list order, so even a removed item's place is found), else, with only
 * a digest, by looking for it; an item gone whose key was too long to carry falls back to the offset.
 */
function resumeAt<T>(all: readonly T[], at: CursorAt, keyOf?: (t: T) => string): number {
  if (!keyOf || (at.k === undefined && at.h === undefined)) return at.o;
  const named = (t: T) => (at.k !== undefined ? keyOf(t) === at.k : digestOf(keyOf(t)) === at.h);
  if (at.o <= all.length && named(all[at.o - 1])) return at.o;
  if (at.k !== undefined) {
    const key = at.k;
    return lowerBound(all.length, (i) => keyOf(all[i]) <= key);
  }
  const i = all.findIndex(named);
  return i >= 0 ? i + 1 : Math.min(at.o, all.length);
}

/** How a list is cut into pages. */
export interface PageRule<T> {
  /** At most this many items a page. */
  maxItems: number;
  /** With `maxWeight`: items whose weights add up to at most that, though never fewer than one item. */
  weight?: (t: T) => number;
  maxWeight?: number;
  /** A key per item, ascending in the list's order (code units) and unique: a cursor resumes after the item it names. */
  keyOf?: (t: T) => string;
}

/** The page of `all` that starts at the cursor (an entry is never split across pages). */
export function pageOf<T>(list: ListName, all: readonly T[], cursor: unknown, method: string, rule: PageRule<T>): Page<T> {
  const { maxItems, weight, maxWeight = Infinity, keyOf } = rule;
  const start = resumeAt(all, decodeCursor(list, cursor, method), keyOf);
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
  return i < all.length ? { items, nextCursor: encodeCursor(list, i, keyOf && i > 0 ? keyOf(all[i - 1]) : undefined) } : { items };
}
