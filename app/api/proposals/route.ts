import { z } from "zod";
import { parseBody } from "@/lib/api/parse-body";
import { parseQuery } from "@/lib/api/parse-query";
import { guard } from "@/lib/auth/guard";
import { learningOut } from "@/lib/learnings/learning-schemas";
import { proposalOutSchema, proposalQuerySchema } from "@/lib/proposals/proposal-schemas";
import { listProposals, propose } from "@/lib/proposals/proposals";

export const GET = guard("read", async ({ request, db, principal }) => {
  const page = await listProposals(db, principal, parseQuery(request, proposalQuerySchema));
  return Response.json({ ok: true, items: z.array(proposalOutSchema).parse(page.items), nextCursor: page.nextCursor });
});

export const POST = guard("write", async ({ request, db, principal, maxBodyBytes }) => {
  const result = await propose(db, principal, await parseBody(request, z.unknown(), maxBodyBytes));
  if (result.merged === "learning") {
    // Already known: nothing stored; say which learning it matched.
    return Response.json({ ok: true, merged: "learning", proposal: null, learning: learningOut(result.learning) });
  }
  return Response.json(
    { ok: true, merged: result.merged, proposal: proposalOutSchema.parse(result.proposal) },
    { status: result.merged ? 200 : 201 },
  );
});
