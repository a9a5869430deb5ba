import { getSessionCookie } from "better-auth/cookies";
import { NextResponse, type NextRequest } from "next/server";
import { allowedMethods } from "./lib/api/allowed-methods";
import { ApiError, handleApiError } from "./lib/api/errors";
import { noSuchApiRoute } from "./lib/api/no-such-route";
import { decodePathSegments } from "./lib/api/path-segments";
import { PATH_HEADER } from "./lib/auth/path-header";
import { badRequestPage } from "./lib/dashboard/bad-request-page";

// Pages that need no session, static files, and the public CLI downloads (cli/baton.mjs and install.sh,
// fetched before anyone has signed in): the sign-in redirect skips them.
const PUBLIC_PATH = /^\/(?:sign-in|setup|_next\/|favicon\.ico|cli\/|install\.sh$)|\.(?:svg|png|ico|txt)$/;
// The bodies Next.js parses as a form when they are posted to a page (a server action without JavaScript).
const FORM_TYPE = /^\s*(?:multipart\/form-data|application\/x-www-form-urlencoded)/i;

/**
 * Runs before every request. Rejects what Next.js cannot serve well: a path that is not valid
 * percent-encoded UTF-8 (400; Next.js would answer a bare 500) and a method an API route does not
 * export (405 with Allow; Next.js would answer an empty 405), and a form posted to a page that does not
 * parse (400; Next.js would answer a bare 500). Then sends a visitor without a session cookie to
 * sign-in before any dashboard page renders: only a convenience redirect, since every page, action and
 * route checks the session itself.
 */
export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const isApi = pathname === "/api" || pathname.startsWith("/api/");
  const segments = decodePathSegments(pathname);
  if (!segments) {
    if (!isApi) return badRequestPage("This address cannot be read: part of it is not valid percent-encoded text.");
    return handleApiError(new ApiError("bad_request", "The URL path is not valid percent-encoded UTF-8."));
  }
  if (isApi) return checkApiMethod(request.method, segments) ?? NextResponse.next();
  if (request.method === "POST" && FORM_TYPE.test(request.headers.get("content-type") ?? "") && !(await isReadableForm(request))) {
    return badRequestPage("The form sent with this request cannot be read.");
  }
  if (PUBLIC_PATH.test(pathname)) return NextResponse.next();
  if (getSessionCookie(request)) {
    // The cookie may be stale; the page then redirects to sign-in itself, and needs the path to come back to.
    const headers = new Headers(request.headers);
    headers.set(PATH_HEADER, pathname + request.nextUrl.search);
    return NextResponse.next({ request: { headers } });
  }
  const url = new URL("/sign-in", request.url);
  const next = pathname + request.nextUrl.search;
  if (next !== "/") url.searchParams.set("next", next);
  return NextResponse.redirect(url);
}

/** Reads a copy of the body: the page's server action still gets the original. */
async function isReadableForm(request: NextRequest): Promise<boolean> {
  try {
    await request.clone().formData();
    return true;
  } catch {
    return false;
  }
}

function checkApiMethod(method: string, segments: string[]): Response | null {
  const allowed = allowedMethods(segments);
  // Only /api itself: the catch-all route answers every deeper path that no other route serves.
  if (!allowed) return noSuchApiRoute();
  if (allowed.includes(method)) return null;
  const allow = allowed.join(", ");
  return handleApiError(new ApiError("method_not_allowed", `${method} is not allowed here; this route takes ${allow}.`, undefined, { headers: { allow } }));
}

export const config = {
  // Everything but the build's static chunks and optimised images, which are served as files.
  matcher: ["/((?!_next/static/|_next/image).*)"],
};
