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
 * instance on the database), and refuses it with 429 and Retry-After once the token is over.
 */
export function checkTokenRate(db: Db, tokenId: string): void {
  if (getConfig().rateLimit === 0) return;
  const retryAfter = limiter(db).take(tokenId);
  if (retryAfter > 0) {
    throw new ApiError("rate_limited", `This token has made more than ${getConfig().rateLimit} requests this minute; try again in ${retryAfter} s.`, undefined, {
      headers: { "retry-after": String(retryAfter) },
    });
  }
}
