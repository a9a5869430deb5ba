import "server-only";
import { ApiError } from "../api/errors";
import { getConfig } from "../config";
import type { Db } from "../db/client";
import { addWindowCounts } from "../db/queries/rate-limits";
import { processWide } from "../process/process-state";
import { RateLimiter } from "./rate-limiter";

/** The process's limiter, made on first use with its one database handle (lib/db/client.ts getDb). */
const limiter = (db: Db) =>
  processWide("rate limiter", () => new RateLimiter(getConfig().rateLimit, (counts, pruneBefore) => addWindowCounts(db, { counts, pruneBefore })));

/**
 * Counts a request of an API token against BATON_RATE_LIMIT requests a minute (shared by every
 * instance on the database), and refuses it with 429 and Retry-After once the token is over. An MCP
 * POST counts each message of a JSON-RPC batch (`requests`): a batch is as much work as that many posts.
 */
export function checkTokenRate(db: Db, tokenId: string, requests = 1): void {
  const limit = getConfig().rateLimit;
  if (limit === 0) return;
  const retryAfter = limiter(db).take(tokenId, requests);
  if (retryAfter > 0) {
    const message =
      requests === 1
        ? `This token has made more than ${limit} requests this minute; try again in ${retryAfter} s.`
        : requests > limit
          ? `This batch of ${requests} messages counts as ${requests} requests, more than this token's ${limit} a minute: send fewer at a time.`
          : `This batch of ${requests} messages counts as ${requests} requests, which would take this token past ${limit} requests this minute; try again in ${retryAfter} s.`;
    throw new ApiError("rate_limited", message, undefined, { headers: { "retry-after": String(retryAfter) } });
  }
}
