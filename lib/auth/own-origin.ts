import { requestHost } from "../api/origin-from-headers";

/**
 * Whether an Origin header names this server: BATON_BASE_URL's origin when set, else the host the
 * request was addressed to. A malformed or "null" origin is not ours.
 */
export function isOwnOrigin(request: Request, origin: string, baseUrl: string | undefined): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.origin === "null") return false;
  if (baseUrl && new URL(baseUrl).origin === parsed.origin) return true;
  const host = requestHost(request.headers);
  return host !== undefined && parsed.host === host;
}
