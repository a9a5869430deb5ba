import { z } from "zod";
import { parseBody } from "@/lib/api/parse-body";
import { parseQuery } from "@/lib/api/parse-query";
import { guard } from "@/lib/auth/guard";
import { learningOut, learningQuerySchema } from "@/lib/learnings/learning-schemas";
import { createLearning, listLearnings } from "@/lib/learnings/learnings";

export const GET = guard("read", async ({ request, db, principal }) => {
  const page = await listLearnings(db, principal, parseQuery(request, learningQuerySchema));
  return Response.json({ ok: true, items: page.items.map(learningOut), nextCursor: page.nextCursor });
});

export const POST = guard("write", async ({ request, db, principal, maxBodyBytes }) => {
  const { learning, created } = await createLearning(db, principal, await parseBody(request, z.unknown(), maxBodyBytes));
  // Its text already there (a write sent again): 200 with the one stored, not a second copy.
  return Response.json({ ok: true, learning: learningOut(learning), created }, { status: created ? 201 : 200 });
});
