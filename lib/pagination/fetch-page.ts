import { encodeCursor } from "./cursor";

/** One page of a list, and the cursor of the next one (null on the last page). */
export type Page<T> = { items: T[]; nextCursor: string | null };

/**
 * Reads a page through `fetch`, asking for one row more than the page holds: that row says whether a
 * next page exists, without counting. `keyOf` gives the sort key of the page's last item, which the
 * next request's query continues after (or, for an offset-paged search, the next offset).
 */
export async function fetchPage<T>(limit: number, fetch: (limit: number) => Promise<T[]>, keyOf: (last: T) => unknown[]): Promise<Page<T>> {
  const rows = await fetch(limit + 1);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
}
