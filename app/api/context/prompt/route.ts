import { hookCacheControl } from "@/lib/api/hook-cache-control";
import { parseQuery } from "@/lib/api/parse-query";
import { guard } from "@/lib/auth/guard";
import { promptBody, promptContext } from "@/lib/context/prompt/prompt-context";
import { fitFormat } from "@/lib/context/context-query";
import { promptQuerySchema } from "@/lib/context/prompt/prompt-query";
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/client";

/**
 * The prompt stage (SPEC §3): what an agent receives at a prompt, on top of what its session has.
 * Never cached: the answer depends on what the session was given, which each answer changes. A token
 * this instance remembers is checked in the prompt's own first batch (no lookup of its own).
 */
export const GET = guard("read", ({ request, db, principal }) => answer(request, db, principal, true), { checkTokenInReads: true });

/** GET's headers without its body, and nothing recorded as given to the session (Next.js would otherwise answer HEAD with GET). */
export const HEAD = guard("read", ({ request, db, principal }) => answer(request, db, principal, false), { checkTokenInReads: true });

async function answer(request: Request, db: Db, principal: Principal, record: boolean): Promise<Response> {
  const q = fitFormat(parseQuery(request, promptQuerySchema));
  const { body, contentType } = promptBody(await promptContext(db, principal, q, new Date(), record), q.format);
  return new Response(record ? body : null, { headers: { "content-type": contentType, "cache-control": hookCacheControl("no-store"), vary: "authorization, cookie" } });
}
