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
