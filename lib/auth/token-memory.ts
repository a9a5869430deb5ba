import type { Db } from "../db/client";
import { BoundedCache } from "../process/bounded-cache";
import { read } from "../db/queries/batch-reads";
import { findTokenByHash, tokenByHashQuery, tokenOfRows, touchTokens, type TokenPrincipal } from "../db/queries/tokens";
import { processWide } from "../process/process-state";
import { writeBehind } from "../process/write-behind";

/**
 * Tokens seen in the last few seconds, so a busy agent's requests do not each look theirs up. A token
 * revoked here (or whose user is disabled here) is forgotten at once; one revoked or disabled through
 * another instance on the same database stops working within TOKEN_CACHE_MS. Unknown tokens are never
 * cached. A token seen longer ago is still remembered (up to MAX_TOKENS) as a hint: a route that reads
 * the database anyway (the context) starts with any remembered token and checks it in its own first
 * batch (TokenCheck), saving a round trip, and there a revoked token stops at once on every instance.
 */
const TOKEN_CACHE_MS = 5000;
const MAX_TOKENS = 10_000;
/** Last-used times are kept to the minute. */
const TOUCH_EVERY_MS = 60_000;
/** Last-used times are written about once a second, with others. */
const TOUCH_FLUSH_MS = 1000;

type Entry = { token: TokenPrincipal; until: number };
const state = { tokens: processWide("remembered tokens", () => new BoundedCache<string, Entry>(MAX_TOKENS)) };

/** Remembers a token as just looked up or checked: fresh for TOKEN_CACHE_MS, a hint after. */
function remember(tokenHash: string, token: TokenPrincipal): void {
  state.tokens.set(tokenHash, { token, until: Date.now() + TOKEN_CACHE_MS });
}

/** The token of a hash when remembered and fresh. */
function fresh(tokenHash: string): TokenPrincipal | undefined {
  const entry = state.tokens.get(tokenHash);
  return entry && entry.until > Date.now() ? entry.token : undefined;
}

/** Forgets a token at once (revoked through this instance). */
export function forgetToken(tokenId: string): void {
  state.tokens.deleteWhere((entry) => entry.token.id === tokenId);
}

/**
 * Forgets every token of a user at once (disabled through this instance). Other instances stop taking
 * them within TOKEN_CACHE_MS, as for a revoked token, and a hint is checked against the database anyway.
 */
export function forgetTokensOf(userId: string): void {
  state.tokens.deleteWhere((entry) => entry.token.userId === userId);
}

/** The token of a hash: remembered, else looked up (and remembered). Records its use. */
export async function tokenOf(db: Db, tokenHash: string): Promise<TokenPrincipal | undefined> {
  const cached = fresh(tokenHash);
  if (cached) return used(db, cached);
  const token = await findTokenByHash(db, { tokenHash });
  if (!token) return undefined;
  remember(tokenHash, token);
  return used(db, token);
}

/** A token remembered from before (however recently), to be checked by the request's own reads. */
export function tokenHint(tokenHash: string): TokenPrincipal | undefined {
  return state.tokens.get(tokenHash)?.token;
}

/** Thrown when a token checked in a request's batch is not what it was remembered as: the request is answered anew. */
export class TokenChanged extends Error {
  constructor() {
    super("the token changed since it was remembered");
  }
}

const sameToken = (a: TokenPrincipal, b: TokenPrincipal) =>
  a.id === b.id && a.userId === b.userId && a.scope === b.scope && JSON.stringify(a.projectIds?.toSorted()) === JSON.stringify(b.projectIds?.toSorted());

/**
 * A check of a hinted token to add to a request's first batch: `settle` throws TokenChanged when the
 * stored token is gone or other than remembered, else remembers it afresh.
 */
export function tokenCheck(db: Db, tokenHash: string, expected: TokenPrincipal) {
  return {
    read: read(tokenByHashQuery(db, tokenHash), tokenOfRows),
    settled: false,
    settle(found: TokenPrincipal | undefined): void {
      if (!found || !sameToken(found, expected)) {
        // Answered anew with the token looked up, not with the memory the check just disproved.
        state.tokens.delete(tokenHash);
        throw new TokenChanged();
      }
      this.settled = true;
      remember(tokenHash, found);
      used(db, found);
    },
  };
}

/**
 * Records a token's use at most once a minute, written with others about once a second in one batch
 * (bookkeeping, like the served-context log): never a round trip of the request itself.
 */
function used(db: Db, token: TokenPrincipal): TokenPrincipal {
  const now = new Date();
  if (token.lastUsedAt && now.getTime() - token.lastUsedAt.getTime() <= TOUCH_EVERY_MS) return token;
  token.lastUsedAt = now;
  touches(db).add([token.id, now]);
  return token;
}

/** The buffer, made on first use with the process's one database handle (lib/db/client.ts getDb). */
const touches = (db: Db) =>
  processWide("token last-used times", () =>
    writeBehind<[tokenId: string, at: Date]>({
      name: "token last-used times",
      flushEvery: TOUCH_FLUSH_MS,
      maxItems: MAX_TOKENS,
      // A token used twice in the batch (looked up afresh each time) is written once, at its latest use.
      write: (batch) => touchTokens(db, { touches: [...new Map(batch)], minAgeMs: TOUCH_EVERY_MS }),
    }),
  );
