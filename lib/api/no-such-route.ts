import { errorResponse } from "./errors";

/** The answer for a path under /api that no route serves: the API's error shape, not an HTML page. */
export function noSuchApiRoute(): Response {
  return errorResponse("not_found", "No such API route. See GET /api/health and the README.");
}

/**
 * The answer for OAuth discovery (/.well-known/…, RFC 9728 and 8414) and the /register an MCP client
 * falls back to after a 401: Baton runs no OAuth server, and a client reads a 404 as "none here"
 * where the sign-in page would have been HTML it cannot parse.
 */
export function noOAuthServer(): Response {
  return errorResponse(
    "not_found",
    "Baton has no OAuth server: send an API token as Authorization: Bearer <token> (baton login, or API tokens in the dashboard).",
  );
}
