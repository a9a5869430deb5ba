import "server-only";
import { ApiError } from "../api/errors";
import { authenticateToken } from "../auth/api-tokens";
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";

/**
 * The Bearer half of the guard's authentication (lib/auth/guard.ts keeps its own private): MCP takes API
 * tokens only. A session cookie is never enough here, so a page in a browser cannot drive an agent's tools.
 */
export async function authenticateBearer(db: Db, request: Request): Promise<Principal> {
  const header = request.headers.get("authorization");
  if (header === null) {
    throw new ApiError("unauthorized", "Send an API token as Authorization: Bearer <token> (create one in the dashboard settings).");
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new ApiError("unauthorized", "Send the token as Authorization: Bearer <token>.");
  const token = await authenticateToken(db, match[1]!);
  if (!token) throw new ApiError("unauthorized", "The token is not valid (revoked, mistyped or from another server).");
  return { userId: token.userId, scope: token.scope, via: "token", tokenId: token.id, projectIds: token.projectIds };
}
