import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Requests per API token per minute, shared by every instance on the database: each instance counts
 * in memory and adds its counts here about once a second (lib/rate-limit). No foreign key to the
 * token: a batch must not fail because a token was revoked meanwhile; old windows are pruned.
 */
export const rateLimitCounts = sqliteTable(
  "rate_limit_counts",
  {
    tokenId: text("token_id").notNull(),
    /** The minute, as milliseconds since the epoch at its start. */
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.windowStart] })],
);
