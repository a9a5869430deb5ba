import { z } from "zod";
import { parseBody } from "@/lib/api/parse-body";
import { guard } from "@/lib/auth/guard";
import { decisionJson } from "@/lib/proposals/decision-response";
import { reviewProposals } from "@/lib/proposals/proposals";

export const POST = guard("write", async ({ request, db, principal, maxBodyBytes }) => {
  const results = await reviewProposals(db, principal, await parseBody(request, z.unknown(), maxBodyBytes));
  return Response.json({ ok: true, items: results.map(decisionJson) });
});
