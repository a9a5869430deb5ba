import { requestHost } from "../api/origin-from-headers";

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
  const host = requestHost(headers);
  if (!host) return "";
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return "";
  }
}

/** True when `url` is plain HTTP to a host other than this machine's loopback: what is sent to it crosses the network in clear text. */
export function isUnencryptedUrl(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url);
    return protocol === "http:" && !LOOPBACK_HOSTS.has(hostname);
  } catch {
    return false;
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

/**
 * Request headers the HTTP server itself sets on every request before Next.js sees it (see
 * stampConnection), overwriting any a client sent under these names: what the socket said, which
 * Next.js's own X-Forwarded-* defaults would otherwise hide.
 */
export const PEER_ADDRESS_HEADER = "x-baton-peer-address";
export const FORWARDED_FLAG_HEADER = "x-baton-forwarded";

/** Headers by which a proxy says whom it forwards for (Next.js adds X-Forwarded-* itself only later). */
const FORWARDING_HEADER = /^(?:forwarded|x-forwarded-.+|x-real-ip)$/;

/** Writes the socket's facts into the request's headers, before anything else reads them. */
export function stampConnection(req: { headers: Record<string, string | string[] | undefined>; socket: { remoteAddress?: string } }): void {
  const forwarded = Object.keys(req.headers).some((name) => FORWARDING_HEADER.test(name));
  req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
  if (forwarded) req.headers[FORWARDED_FLAG_HEADER] = "1";
  else delete req.headers[FORWARDED_FLAG_HEADER];
}

/**
 * The address of whoever sent the request, for per-client limits: the socket's peer, or, when the
 * server is configured to sit behind a proxy (BATON_TRUST_PROXY), the last X-Forwarded-For hop, the
 * one that proxy appended (the ones before it are the client's to forge).
 */
export function clientAddress(headers: Headers, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = (headers.get("x-forwarded-for") ?? "").split(",").map((hop) => hop.trim()).filter(Boolean);
    if (hops.length) return hops.at(-1)!;
  }
  return headers.get(PEER_ADDRESS_HEADER) ?? "";
}

/**
 * True when the request came from this machine to a name of this machine, with nobody in between: a
 * loopback peer, a loopback Host (a DNS-rebinding page sends its own name) and no forwarding headers
 * (a proxy on this machine connects from loopback on behalf of anyone).
 */
export function isLoopbackDirect(headers: Headers): boolean {
  if (headers.has(FORWARDED_FLAG_HEADER)) return false;
  const peer = headers.get(PEER_ADDRESS_HEADER) ?? "";
  if (!/^(?:127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/i.test(peer)) return false;
  // The Host header exactly as a browser at this machine sends it: a name, an optional port, nothing else.
  const host = /^([^:[\]]+|\[[^\]]+\])(?::\d{1,5})?$/.exec(headers.get("host") ?? "");
  return host !== null && LOOPBACK_HOSTS.has(host[1]!.toLowerCase());
}
