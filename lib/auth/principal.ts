import type { Read } from "../db/queries/batch-reads";
import type { TokenPrincipal } from "../db/queries/tokens";
import type { TokenScope } from "../db/schema";

/**
 * A token taken as this instance remembered it, not yet checked: the request's first batch must read
 * `read` and pass its answer to `settle`, which throws TokenChanged (the request is then answered anew,
 * the token looked up) when the stored token is gone or other than remembered.
 */
export type TokenCheck = { read: Read<TokenPrincipal | undefined>; settle: (found: TokenPrincipal | undefined) => void; readonly settled: boolean };

/** Who is making a request, however they authenticated. */
export type Principal = {
  userId: string;
  /** A signed-in dashboard user writes; a token carries its own scope. */
  scope: TokenScope;
  via: "session" | "token";
  tokenId: string | null;
  /** Project ids a token is limited to; null: every project of the user. */
  projectIds: string[] | null;
  /** Set only for routes that check the token in their own reads (guard's `checkTokenInReads`). */
  tokenCheck?: TokenCheck;
};

/** A signed-in dashboard user: writes, every project of theirs. */
export function sessionPrincipal(userId: string): Principal {
  return { userId, scope: "write", via: "session", tokenId: null, projectIds: null };
}
