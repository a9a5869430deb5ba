/**
 * How a request reached this server, for the session cookie's Secure flag and the dashboard's
 * unencrypted-connection banner. Pure functions of the request headers: Next fills in
 * X-Forwarded-Proto from its own socket when no proxy sent one, so the header is always there.
 */

/** Hosts a browser treats as a secure context even over plain HTTP (cookies marked Secure still stick). */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * True when the request arrived over HTTPS, directly or through a TLS-terminating proxy. Any "https"
 * in X-Forwarded-Proto counts (a chain of proxies may list several): a forged one only makes the
 * cookie stricter, and the sender's own browser then drops it.
 */
export function isHttpsRequest(headers: Headers): boolean {
  const proto = headers.get("x-forwarded-proto") ?? "";
  return proto.split(",").some((p) => p.trim().toLowerCase() === "https");
}

/**
 * Whether the session cookie set in answer to this request is Secure. Always when BATON_BASE_URL is
 * https (the deployment says so, whatever a header claims), else when the request itself is HTTPS.
 * Never Secure over plain HTTP otherwise: browsers drop a Secure cookie there (except at localhost),
 * so signing in at a LAN address would silently fail.
 */
export function wantsSecureCookies(headers: Headers, baseUrl: string | undefined): boolean {
  return baseUrl?.startsWith("https://") === true || isHttpsRequest(headers);
}

/** The host name the browser used (a proxy's X-Forwarded-Host first), without the port; "" when absent. */
export function requestHostname(headers: Headers): string {
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host") || "";
  if (!host) return "";
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return "";
  }
}

/**
 * True when passwords and session cookies cross a network in clear text: plain HTTP to a host that is
 * not this machine's loopback (a LAN name or address).
 */
export function isUnencryptedRemote(headers: Headers): boolean {
  const hostname = requestHostname(headers);
  return !isHttpsRequest(headers) && hostname !== "" && !LOOPBACK_HOSTS.has(hostname);
}
