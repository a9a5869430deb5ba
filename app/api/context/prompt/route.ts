import { hookCacheControl } from "@/lib/api/hook-cache-control";
import { parseQuery } from "@/lib/api/parse-query";
import { guard } from "@/lib/auth/guard";
import { promptBody, promptContext } from "@/lib/context/prompt/prompt-context";
import { fitFormat } from "@/lib/context/context-query";
import { promptQuerySchema } from "@/lib/context/prompt/prompt-query";

/**
 * The prompt stage (SPEC §3): what an agent receives at a prompt, on top of what its session has.
 * Never cached: the answer depends on what the session was given, which each answer changes. A token
 * this instance remembers is checked in the prompt's own first batch (no lookup of its own).
 */
export const GET = guard("read", async ({ request, db, principal }) => {
  const q = fitFormat(parseQuery(request, promptQuerySchema));
  const { body, contentType } = promptBody(await promptContext(db, principal, q), q.format);
  return new Response(body, { headers: { "content-type": contentType, "cache-control": hookCacheControl("no-store"), vary: "authorization, cookie" } });
}, { checkTokenInReads: true });
