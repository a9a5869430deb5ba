import "server-only";
import { ApiError } from "../api/errors";

/**
 * A browser sends Origin with every cross-site POST; CLI agents send none. A request from a page of
 * another site is refused before anything else happens (the MCP transport spec asks servers to check
 * Origin, against DNS-rebinding pages talking to a local server). "Own" is BATON_BASE_URL when set,
 * else the host the request was addressed to.
 */
export function checkOrigin(request: Request, baseUrl: string | undefined): void {
  const origin = request.headers.get("origin");
  if (origin === null || origin === "") return;
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    parsed = undefined;
  }
  if (parsed && parsed.origin !== "null") {
    if (baseUrl && new URL(baseUrl).origin === parsed.origin) return;
    const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
    if (host && parsed.host === host) return;
  }
  throw new ApiError(
    "forbidden",
    `Requests from the web page origin ${JSON.stringify(origin)} are refused: the MCP endpoint serves agents (which send no Origin) and this server's own pages.`,
  );
}
