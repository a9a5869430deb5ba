import { getSessionCookie } from "better-auth/cookies";
import { NextResponse, type NextRequest } from "next/server";
import { noOAuthServer } from "./lib/api/no-such-route";
import { decodePathSegments } from "./lib/api/path-segments";
import { PATH_HEADER } from "./lib/auth/path-header";
import { DATABASE_RETRY_AFTER_SECONDS } from "./lib/api/errors";
import { isOwnOrigin } from "./lib/auth/own-origin";
import { badRequestPage, FOREIGN_FORM, unavailablePage, type BadRequestReason } from "./lib/dashboard/bad-request-page";
import { databaseDown } from "./lib/db/outage";
import { newNonce, pagePolicy, securityHeaders } from "./lib/security-headers";

// Pages that need no session (an invitation link's and a password reset link's among them: their
// secret is the key): the sign-in redirect skips them, and STATIC_PATH.
const AUTH_PAGE = /^\/(?:sign-in|setup|join\/|reset\/)/;
// Static files and the public CLI downloads (cli/baton.mjs and install.sh, fetched before anyone has
// signed in): no session, and no database either (served during an outage).
const STATIC_PATH = /^\/(?:_next\/|favicon\.ico|cli\/|install\.sh$)|\.(?:svg|png|ico|txt)$/;
// What an MCP client asks for after a 401 (OAuth discovery, then client registration): JSON, never a redirect.
const OAUTH_PATH = /^\/(?:\.well-known(?:\/|$)|register$)/;
// The bodies Next.js parses as a form when they are posted to a page (a server action without JavaScript).
const FORM_TYPE = /^\s*(?:multipart\/form-data|application\/x-www-form-urlencoded)/i;

/**
 * Runs before every dashboard request (the API's are checked earlier, in lib/api/guard-http-server.ts).
 * Rejects what Next.js cannot serve well: a path that is not valid percent-encoded UTF-8, a form
 * posted from another site (403), and a form posted to a page or a server action's arguments that do
 * not parse (400; styled pages where Next.js would answer a bare 500). Then sends a visitor without a session cookie to
 * sign-in before any dashboard page renders: only a convenience redirect, since every page, action and
 * route checks the session itself. Every answer gets the security headers, its policy with a nonce of its
 * own: Next.js reads the policy from the request while rendering and puts the nonce on each script it
 * writes, which is why every page renders per request (app/layout.tsx).
 */
export async function proxy(request: NextRequest) {
  const nonce = newNonce();
  const headers = securityHeaders(pagePolicy(nonce));
  return withHeaders(await route(request, nonce, headers["content-security-policy"]!), headers);
}

async function route(request: NextRequest, nonce: string, policy: string): Promise<Response> {
  const { pathname } = request.nextUrl;
  if (!decodePathSegments(pathname)) return badRequestPage("This address cannot be read: part of it is not valid percent-encoded text.", nonce);
  if (OAUTH_PATH.test(pathname)) return noOAuthServer();
  // Next.js refuses a server action from another origin with a bare 500; the same check, answered in Baton's look.
  const origin = request.headers.get("origin");
  if (request.method === "POST" && origin !== null && !isOwnOrigin(request, origin, process.env.BATON_BASE_URL)) return badRequestPage(FOREIGN_FORM, nonce);
  const unreadable = request.method === "POST" ? await unreadableBody(request) : null;
  if (unreadable) return badRequestPage(unreadable, nonce);
  if (!STATIC_PATH.test(pathname) && (await databaseDown())) return unavailablePage(nonce, DATABASE_RETRY_AFTER_SECONDS);
  const forwarded = new Headers(request.headers);
  forwarded.set("content-security-policy", policy);
  if (AUTH_PAGE.test(pathname) || STATIC_PATH.test(pathname)) return NextResponse.next({ request: { headers: forwarded } });
  if (getSessionCookie(request)) {
    // The cookie may be stale; the page then redirects to sign-in itself, and needs the path to come back to.
    forwarded.set(PATH_HEADER, pathname + request.nextUrl.search);
    return NextResponse.next({ request: { headers: forwarded } });
  }
  const url = new URL("/sign-in", request.url);
  const next = pathname + request.nextUrl.search;
  if (next !== "/") url.searchParams.set("next", next);
  return NextResponse.redirect(url);
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * Why a posted body cannot be read, or null: a form that does not parse, or a server action's
 * arguments (any other body sent with a Next-Action header, which Next.js decodes as JSON text) that
 * are not JSON. Reads a copy of the body: the page's server action still gets the original.
 */
async function unreadableBody(request: NextRequest): Promise<BadRequestReason | null> {
  if (FORM_TYPE.test(request.headers.get("content-type") ?? "")) {
    return (await parses(() => request.clone().formData())) ? null : "The form sent with this request cannot be read.";
  }
  if (!request.headers.has("next-action")) return null;
  return (await parses(async () => JSON.parse(await request.clone().text()))) ? null : "The data sent with this action cannot be read.";
}

async function parses(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return true;
  } catch {
    return false;
  }
}

export const config = {
  // Everything but the API (lib/api/guard-http-server.ts checks its paths and methods before Next.js,
  // off the middleware path), the build's static chunks and optimised images.
  matcher: ["/((?!api/|api$|_next/static/|_next/image).*)"],
};
