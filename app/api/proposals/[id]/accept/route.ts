import { z } from "zod";
import { parseBody } from "@/lib/api/parse-body";
import { guard } from "@/lib/auth/guard";
import { decisionJson } from "@/lib/proposals/decision-response";
import { acceptProposal } from "@/lib/proposals/proposals";

export const POST = guard<{ id: string }>("write", async ({ request, db, principal, params, maxBodyBytes }) => {
  // The edited content is optional, so an empty body is fine.
  const hasBody = request.headers.get("content-length") !== "0" && request.body !== null && request.headers.has("content-type");
  const body = hasBody ? await parseBody(request, z.unknown(), maxBodyBytes) : {};
  return Response.json({ ok: true, ...decisionJson(await acceptProposal(db, principal, params.id, body)) });
});
