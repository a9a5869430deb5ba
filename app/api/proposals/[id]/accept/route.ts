import { z } from "zod";
import { parseBody } from "@/lib/api/parse-body";
import { guard } from "@/lib/auth/guard";
import { decisionJson } from "@/lib/proposals/decision-response";
import { acceptProposal } from "@/lib/proposals/proposals";

export const POST = guard<{ id: string }>("write", async ({ request, db, principal, params, maxBodyBytes }) => {
  // The edited content is optional, so the body is too.
  const body = await parseBody(request, z.unknown(), maxBodyBytes, { optional: true });
  return Response.json({ ok: true, ...decisionJson(await acceptProposal(db, principal, params.id, body)) });
});
