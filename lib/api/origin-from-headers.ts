/**
 * This server's address as agents and browsers reach it: BATON_BASE_URL when set (behind a proxy that
 * rewrites the host), else the Host the request came to (with a proxy's X-Forwarded-* when present).
 * Not request.url: Next builds that from its own listen address, which may not be the one people use.
 */
export function originFromHeaders(headers: Headers, baseUrl: string | undefined): string {
  if (baseUrl) return baseUrl;
  const host = headers.get("x-forwarded-host") ?? headers.get("host") ?? "localhost:3000";
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() ?? "http";
  return `${proto}://${host}`;
}
