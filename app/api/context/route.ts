import { hookCacheControl } from "@/lib/api/hook-cache-control";
import { originFromHeaders } from "@/lib/api/origin-from-headers";
import { parseQuery } from "@/lib/api/parse-query";
import { guard } from "@/lib/auth/guard";
import { getConfig } from "@/lib/config";
import { contextQuerySchema, fitFormat } from "@/lib/context/context-query";
import { serveContext } from "@/lib/context/serve/serve-context";

/**
 * What an agent receives at session start. Reads only: the bookkeeping (last-injected times, the
 * served log) is buffered and written apart from the request, and never read back into a context. A
 * token this instance remembers is checked in the context's own first batch (no lookup of its own).
 */
export const GET = guard("read", async ({ request, db, principal }) => {
  const q = fitFormat(parseQuery(request, contextQuerySchema));
  const served = await serveContext(db, principal, q, { dashboardUrl: originFromHeaders(request.headers, getConfig().baseUrl) });
  const headers = {
    etag: served.etag,
    "cache-control": hookCacheControl("private, no-cache"),
    vary: "authorization, cookie",
    "x-baton-cache": served.cached ? "hit" : "miss",
    // On a miss, where this answer's learnings were searched: in memory, by SQL (FTS5), or not at all (no
    // hint word rare enough: the recent ones). A kept answer searched nothing.
    ...(served.cached ? {} : { "x-baton-search": served.searched ?? "none" }),
  };
  const ifNoneMatch = request.headers.get("if-none-match");
  // "*" matches any current answer (RFC 9110); a listed tag matches weakly.
  if (ifNoneMatch && ifNoneMatch.split(",").some((t) => t.trim() === "*" || t.trim().replace(/^W\//, "") === served.etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(served.body, { headers: { ...headers, "content-type": served.contentType } });
}, { checkTokenInReads: true });
