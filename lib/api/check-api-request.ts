import { allowedMethods } from "./allowed-methods";
import { ApiError, handleApiError } from "./errors";
import { noSuchApiRoute } from "./no-such-route";
import { decodePathSegments } from "./path-segments";

/**
 * What an /api request gets before any route runs, or null to let its route answer: a path or a query
 * (`search`, raw, after the "?") that is not valid percent-encoded UTF-8 is a 400 (URLSearchParams would
 * read `%zz` as itself and a broken `%E0%A4` as U+FFFD, and a route would answer about text nobody
 * sent), /api itself a 404 (the catch-all route answers deeper unknown paths), a method the route does
 * not export a 405 with Allow. Not an /api path: null.
 */
export function checkApiRequest(method: string, pathname: string, search = ""): Response | null {
  if (pathname !== "/api" && !pathname.startsWith("/api/")) return null;
  const segments = decodePathSegments(pathname);
  if (!segments) return handleApiError(new ApiError("bad_request", "The URL path is not valid percent-encoded UTF-8."));
  if (!decodesAsUtf8(search)) return handleApiError(new ApiError("bad_request", "The URL's query is not valid percent-encoded UTF-8."));
  const allowed = allowedMethods(segments);
  if (!allowed) return noSuchApiRoute();
  return allowed.includes(method) ? null : methodNotAllowed(method, allowed.join(", "));
}

/** 405 in the JSON error shape, with the methods the address takes in `Allow`. */
export function methodNotAllowed(method: string, allow: string): Response {
  return handleApiError(new ApiError("method_not_allowed", `${method} is not allowed here; this address takes ${allow}.`, undefined, { headers: { allow } }));
}

function decodesAsUtf8(query: string): boolean {
  if (!query.includes("%")) return true;
  try {
    decodeURIComponent(query);
    return true;
  } catch {
    return false;
  }
}
