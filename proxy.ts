import { getSessionCookie } from "better-auth/cookies";
import { NextResponse, type NextRequest } from "next/server";
import { PATH_HEADER } from "./lib/auth/path-header";

/**
 * Sends a visitor without a session cookie to sign-in before any dashboard page renders. This is only a
 * convenience redirect: every page, action and route checks the session itself.
 */
export function proxy(request: NextRequest) {
  if (getSessionCookie(request)) {
    // The cookie may be stale; the page then redirects to sign-in itself, and needs the path to come back to.
    const headers = new Headers(request.headers);
    headers.set(PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
    return NextResponse.next({ request: { headers } });
  }
  const url = new URL("/sign-in", request.url);
  const next = request.nextUrl.pathname + request.nextUrl.search;
  if (next !== "/") url.searchParams.set("next", next);
  return NextResponse.redirect(url);
}

export const config = {
  // Not the API (it answers 401 itself), the auth pages, static files, or the public CLI downloads
  // (cli/baton.mjs and install.sh, fetched before anyone has signed in).
  matcher: ["/((?!api/|sign-in|setup|_next/|favicon.ico|cli/|install\\.sh$|.*\\.(?:svg|png|ico|txt)$).*)"],
};
