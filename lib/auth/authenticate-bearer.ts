import "server-only";
import { ApiError } from "../api/errors";
import type { Db } from "../db/client";
import { authenticateToken } from "./api-tokens";
import type { Principal } from "./principal";

/** A 401 names the scheme it wants (RFC 6750 §3), so MCP clients know to send a Bearer token. */
const BEARER_CHALLENGE = { "www-authenticate": 'Bearer realm="baton"' };

function refused(message: string): ApiError {
  return new ApiError("unauthorized", message, undefined, { headers: BEARER_CHALLENGE });
}

/**
 * The principal an `Authorization: Bearer <token>` header names, or a 401. Used by the guard (when the
 * header is there) and by MCP, which takes API tokens only: a session cookie is never enough there, so
 * a page in a browser cannot drive an agent's tools.
 */
export async function authenticateBearer(db: Db, request: Request, options: { checkInReads?: boolean } = {}): Promise<Principal> {
  const header = request.headers.get("authorization");
  if (header === null) throw refused("Send an API token as Authorization: Bearer <token> (create one in the dashboard settings).");
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw refused("Send the token as Authorization: Bearer <token>.");
  const { token, check } = await authenticateToken(db, match[1]!, options);
  if (!token) throw refused("The token is not valid (revoked, mistyped or from another server).");
  return { userId: token.userId, scope: token.scope, via: "token", tokenId: token.id, projectIds: token.projectIds, ...(check ? { tokenCheck: check } : {}) };
}
