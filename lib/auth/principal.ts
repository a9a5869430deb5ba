import type { TokenScope } from "../db/schema";

/** Who is making a request, however they authenticated. */
export type Principal = {
  userId: string;
  /** A signed-in dashboard user writes; a token carries its own scope. */
  scope: TokenScope;
  via: "session" | "token";
  tokenId: string | null;
  /** Project ids a token is limited to; null: every project of the user. */
  projectIds: string[] | null;
};

/** A signed-in dashboard user: writes, every project of theirs. */
export function sessionPrincipal(userId: string): Principal {
  return { userId, scope: "write", via: "session", tokenId: null, projectIds: null };
}
