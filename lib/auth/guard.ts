import "server-only";
import { ApiError, handleApiError } from "../api/errors";
import { getConfig } from "../config";
import { getDb, type Db } from "../db/client";
import { checkTokenRate } from "../rate-limit/token-rate-limit";
import { authenticateBearer } from "./authenticate-bearer";
import { isOwnOrigin } from "./own-origin";
import { authFor } from "./auth";
import { sessionPrincipal, type Principal } from "./principal";

export type GuardContext<P> = { request: Request; params: P; principal: Principal; db: Db; maxBodyBytes: number };
type RouteContext<P> = { params: Promise<P> };

/**
 * The one wrapper of every API route handler: authenticates (Bearer token or session cookie), awaits
 * params, counts a token's request against its rate limit, checks the scope the route needs, and
 * turns whatever is thrown into the JSON error shape.
 */
export function guard<P = Record<string, never>>(
  need: "read" | "write",
  handler: (ctx: GuardContext<P>) => Promise<Response>,
): (request: Request, context: RouteContext<P>) => Promise<Response> {
  return async (request, context) => {
    try {
      const db = getDb();
      const principal = await authenticate(db, request);
      if (principal.tokenId) checkTokenRate(db, principal.tokenId);
      if (need === "write" && principal.scope !== "write") {
        throw new ApiError("forbidden", "This token has the read scope; this request needs write.");
      }
      const params = await context.params;
      return await handler({ request, params, principal, db, maxBodyBytes: getConfig().maxBodyBytes });
    } catch (error) {
      return handleApiError(error);
    }
  };
}

/** For the few public routes: the same error handling, no authentication. */
export function publicRoute<P = Record<string, never>>(
  handler: (ctx: { request: Request; params: P }) => Promise<Response>,
): (request: Request, context: RouteContext<P>) => Promise<Response> {
  return async (request, context) => {
    try {
      return await handler({ request, params: await context.params });
    } catch (error) {
      return handleApiError(error);
    }
  };
}

async function authenticate(db: Db, request: Request): Promise<Principal> {
  if (request.headers.has("authorization")) return authenticateBearer(db, request);
  const session = await authFor(request.headers).api.getSession({ headers: request.headers });
  if (!session) throw new ApiError("unauthorized", "Sign in, or send an API token as Authorization: Bearer <token>.");
  // A cookie-authenticated write must come from this site's own pages (CSRF).
  if (request.method !== "GET" && request.method !== "HEAD") {
    const origin = request.headers.get("origin");
    if (!origin || !isOwnOrigin(request, origin, getConfig().baseUrl)) {
      throw new ApiError("forbidden", "Cross-site request refused: send an API token, or use the dashboard.");
    }
  }
  return sessionPrincipal(session.user.id);
}
