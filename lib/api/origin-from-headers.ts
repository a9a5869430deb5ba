/**
 * The first entry of a forwarding header, trimmed: a chain of proxies appends to X-Forwarded-Host and
 * X-Forwarded-Proto ("baton.example.com, internal:3440", as Apache's mod_proxy does), and the first is
 * what the browser used. Undefined when the header is absent or its first entry is empty.
 */
export function firstForwarded(headers: Headers, name: "x-forwarded-host" | "x-forwarded-proto"): string | undefined {
  return headers.get(name)?.split(",")[0]?.trim() || undefined;
}

/** The host (and port) the browser addressed: a proxy's X-Forwarded-Host first, else Host; undefined when neither says. */
export function requestHost(headers: Headers): string | undefined {
  return firstForwarded(headers, "x-forwarded-host") ?? (headers.get("host")?.trim() || undefined);
}

/**
 * This server's address as agents and browsers reach it: BATON_BASE_URL when set (behind a proxy that
 * rewrites the host), else the Host the request came to (with a proxy's X-Forwarded-* when present).
 * Not request.url: Next builds that from its own listen address, which may not be the one people use.
 */
export function originFromHeaders(headers: Headers, baseUrl: string | undefined): string {
  if (baseUrl) return baseUrl;
  const host = requestHost(headers) ?? "localhost:3000";
  const proto = firstForwarded(headers, "x-forwarded-proto") ?? "http";
  return `${proto}://${host}`;
}
