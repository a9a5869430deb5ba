import { hookCacheControl } from "@/lib/api/hook-cache-control";
import { originFromHeaders } from "@/lib/api/origin-from-headers";
import { parseQuery } from "@/lib/api/parse-query";
import { guard } from "@/lib/auth/guard";
import { getConfig } from "@/lib/config";
import { contextQuerySchema, fitFormat } from "@/lib/context/context-query";
import { serveContext } from "@/lib/context/serve/serve-context";
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/client";

/**
 * What an agent receives at session start. Reads only: the bookkeeping (last-injected times, the
 * served log) is buffered and written apart from the request, and never read back into a context. A
 * token this instance remembers is checked in the context's own first batch (no lookup of its own).
 */
export const GET = guard("read", ({ request, db, principal }) => answer(request, db, principal, true), { checkTokenInReads: true });

/**
 * GET's headers without its body, and nothing recorded: a HEAD (a monitor, a proxy's check) starts no
 * session and does not spend the one-time setup note (Next.js would otherwise answer HEAD with GET).
 */
export const HEAD = guard("read", ({ request, db, principal }) => answer(request, db, principal, false), { checkTokenInReads: true });

async function answer(request: Request, db: Db, principal: Principal, record: boolean): Promise<Response> {
  const q = fitFormat(parseQuery(request, contextQuerySchema));
  const served = await serveContext(db, principal, q, { dashboardUrl: originFromHeaders(request.headers, getConfig().baseUrl), record });
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
  return new Response(record ? served.body : null, { headers: { ...headers, "content-type": served.contentType } });
}
