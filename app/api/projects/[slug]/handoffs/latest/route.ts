import { parseQuery } from "@/lib/api/parse-query";
import { guard } from "@/lib/auth/guard";
import { handoffOutSchema, latestHandoffQuerySchema } from "@/lib/handoffs/handoff-schemas";
import { latestHandoff } from "@/lib/handoffs/handoffs";

export const GET = guard<{ slug: string }>("read", async ({ request, db, principal, params }) => {
  const { branch } = parseQuery(request, latestHandoffQuerySchema);
  const { handoff, matchedBranch } = await latestHandoff(db, principal, params.slug, branch);
  return Response.json({ ok: true, handoff: handoffOutSchema.parse(handoff), matchedBranch });
});
