import { guard } from "@/lib/auth/guard";
import { decisionJson } from "@/lib/proposals/decision-response";
import { rejectProposal } from "@/lib/proposals/proposals";

export const POST = guard<{ id: string }>("write", async ({ db, principal, params }) => {
  return Response.json({ ok: true, ...decisionJson(await rejectProposal(db, principal, params.id)) });
});
