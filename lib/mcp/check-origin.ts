import "server-only";
import { ApiError } from "../api/errors";
import { isOwnOrigin } from "../auth/own-origin";

/**
 * A browser sends Origin with every cross-site POST; CLI agents send none. A request from a page of
 * another site is refused before anything else happens (the MCP transport spec asks servers to check
 * Origin). "Own" is BATON_BASE_URL when set, else the host the request was addressed to — which a
 * DNS-rebinding page controls (its Origin and Host name the same host), so this check alone would not
 * stop one; what does is that /api/mcp takes only a Bearer token, which a page cannot send for the user.
 */
export function checkOrigin(request: Request, baseUrl: string | undefined): void {
  const origin = request.headers.get("origin");
  if (origin === null || origin === "" || isOwnOrigin(request, origin, baseUrl)) return;
  throw new ApiError(
    "forbidden",
    `Requests from the web page origin ${JSON.stringify(origin)} are refused: the MCP endpoint serves agents (which send no Origin) and this server's own pages.`,
  );
}
