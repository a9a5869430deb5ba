import { after } from "next/server";
import { parseQuery } from "@/lib/api/parse-query";
import { guard } from "@/lib/auth/guard";
import { getConfig } from "@/lib/config";
import { buildContext, etagOf } from "@/lib/context/build-context";
import { contextQuerySchema } from "@/lib/context/context-query";
import { gatherContext } from "@/lib/context/gather-context";
import { countTokens } from "@/lib/context/tokenizer";
import { logContextServed } from "@/lib/db/queries/context";
import { markInjected } from "@/lib/db/queries/learnings";

/**
 * What an agent receives at session start. Reads only: the bookkeeping (last-injected times, the
 * served log) runs after the response is sent and is never read back into a context.
 */
export const GET = guard("read", async ({ request, db, principal }) => {
  const q = parseQuery(request, contextQuerySchema);
  const dashboardUrl = getConfig().baseUrl ?? new URL(request.url).origin;
  const { data, project } = await gatherContext(db, principal, q, { now: new Date(), dashboardUrl });
  const built = buildContext(data, { budget: q.budget, maxChars: q.maxChars, mode: q.mode, source: q.source }, countTokens);

  let body: string;
  let contentType = "application/json";
  let etag: string;
  if (q.format === "json") {
    const core = { ok: true, ...built, project: project ? { slug: project.slug, name: project.name } : null };
    etag = await etagOf(JSON.stringify(core));
    body = JSON.stringify({ ...core, etag });
  } else {
    body =
      q.format === "text"
        ? built.context
        : JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: built.context } });
    if (q.format === "text") contentType = "text/plain; charset=utf-8";
    etag = await etagOf(body);
  }

  const shown = data.learnings.slice(0, built.learningsShown).map((l) => l.id);
  after(async () => {
    const at = new Date();
    await markInjected(db, { userId: principal.userId, projectId: project?.id ?? null, ids: shown, at });
    await logContextServed(db, {
      userId: principal.userId,
      projectId: project?.id ?? null,
      tokenId: principal.tokenId,
      source: q.source ?? null,
      budget: q.budget,
      tokenEstimate: built.tokenEstimate,
      learningsShown: built.learningsShown,
    });
  });

  const headers = { etag, "cache-control": "private, no-cache", vary: "authorization, cookie" };
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch && ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { headers: { ...headers, "content-type": contentType } });
});
