import { lt, sql } from "drizzle-orm";
import type { Db } from "../client";
import { rateLimitCounts } from "../schema";

export type WindowCount = { tokenId: string; windowStart: number; count: number };

// Three bound parameters a row; SQLite caps the parameters of one statement.
const ROWS_PER_STATEMENT = 500;

/**
 * Adds each token's requests to its minute and answers the totals every instance has added, in one
 * round trip; windows before `pruneBefore` are deleted in the same batch.
 */
export async function addWindowCounts(db: Db, params: { counts: WindowCount[]; pruneBefore: number }): Promise<WindowCount[]> {
  const upserts = [];
  for (let i = 0; i < params.counts.length; i += ROWS_PER_STATEMENT) {
    upserts.push(
      db
        .insert(rateLimitCounts)
        .values(params.counts.slice(i, i + ROWS_PER_STATEMENT))
        .onConflictDoUpdate({ target: [rateLimitCounts.tokenId, rateLimitCounts.windowStart], set: { count: sql`${rateLimitCounts.count} + excluded.count` } })
        .returning({ tokenId: rateLimitCounts.tokenId, windowStart: rateLimitCounts.windowStart, count: rateLimitCounts.count }),
    );
  }
  const prune = db.delete(rateLimitCounts).where(lt(rateLimitCounts.windowStart, params.pruneBefore));
  const [first, ...rest] = upserts;
  if (!first) {
    await prune;
    return [];
  }
  const results = await db.batch([first, ...rest, prune]);
  return results.slice(0, upserts.length).flat() as WindowCount[];
}
