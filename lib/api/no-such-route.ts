import { errorResponse } from "./errors";

/** The answer for a path under /api that no route serves: the API's error shape, not an HTML page. */
export function noSuchApiRoute(): Response {
  return errorResponse("not_found", "No such API route. See GET /api/health and the README.");
}
