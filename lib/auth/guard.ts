import "server-only";
import { ApiError, handleApiError, isExpectedError } from "../api/errors";
import { getConfig } from "../config";
import { getDb, type Db } from "../db/client";
import { checkTokenRate } from "../rate-limit/token-rate-limit";
import { authenticateBearer } from "./authenticate-bearer";
import { isOwnOrigin } from "./own-origin";
import { authFor } from "./auth";
import { sessionPrincipal, type Principal } from "./principal";
import { TokenChanged } from "./token-memory";

export type GuardContext<P> = { request: Request; params: P; principal: Principal; db: Db; maxBodyBytes: number };
type RouteContext<P> = { params: Promise<P> };

/**
 * The one wrapper of every API route handler: authenticates (Bearer token or session cookie), awaits
 * params, counts a token's request against its rate limit, checks the scope the route needs, and
 * turns whatever is thrown into the JSON error shape.
 *
 * `checkTokenInReads`: a route whose handler reads the database in one batch anyway (the context) takes
 * a token this instance remembers as it was and checks it in that batch (principal.tokenCheck), rather
 * than looking it up first; when the check finds it changed, the request is answered anew with the
 * token looked up.
 */
export function guard<P = Record<string, never>>(
  need: "read" | "write",
  handler: (ctx: GuardContext<P>) => Promise<Response>,
  options: { checkTokenInReads?: boolean } = {},
): (request: Request, context: RouteContext<P>) => Promise<Response> {
  return async (request, context) => {
    try {
      const db = getDb();
      const params = await context.params;
      let counted: { refused?: unknown } | undefined;
      let pending: Principal["tokenCheck"];
      const run = async (checkInReads: boolean) => {
        const principal = await authenticate(db, request, checkInReads);
        pending = principal.tokenCheck;
        // Counted once however often the request is answered; a refusal (429) holds for each answer.
        if (!counted) {
          counted = {};
          try {
            if (principal.tokenId) checkTokenRate(db, principal.tokenId);
          } catch (error) {
            counted.refused = error;
          }
        }
        if (counted.refused) throw counted.refused;
        if (need === "write" && principal.scope !== "write") {
          throw new ApiError("forbidden", "This token has the read scope; this request needs write.");
        }
        return handler({ request, params, principal, db, maxBodyBytes: getConfig().maxBodyBytes });
      };
      if (!options.checkTokenInReads) return await run(false);
      try {
        return await run(true);
      } catch (error) {
        // A refusal of the request (4xx) is answered to a token looked up, never to one not yet checked;
        // a database that failed is answered at once (503), not asked again.
        if (error instanceof TokenChanged || (isExpectedError(error) && pending && !pending.settled)) return await run(false);
        throw error;
      }
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

async function authenticate(db: Db, request: Request, checkInReads = false): Promise<Principal> {
  if (request.headers.has("authorization")) return authenticateBearer(db, request, { checkInReads });
  const session = await authFor(request.headers).api.getSession({ headers: request.headers });
  // Disabling an account deletes its sessions; one made while it was being disabled is refused here.
  if (!session || session.user.disabledAt) throw new ApiError("unauthorized", "Sign in, or send an API token as Authorization: Bearer <token>.");
  // A cookie-authenticated write must come from this site's own pages (CSRF).
  if (request.method !== "GET" && request.method !== "HEAD") {
    const origin = request.headers.get("origin");
    if (!origin || !isOwnOrigin(request, origin, getConfig().baseUrl)) {
      throw new ApiError("forbidden", "Cross-site request refused: send an API token, or use the dashboard.");
    }
  }
  return sessionPrincipal(session.user.id);
}
