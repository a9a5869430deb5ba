import { z } from "zod";
import { parseBody } from "@/lib/api/parse-body";
import { guard } from "@/lib/auth/guard";
import { learningOut } from "@/lib/learnings/learning-schemas";
import { editLearning, getLearning, removeLearning } from "@/lib/learnings/learnings";

type Params = { id: string };

export const GET = guard<Params>("read", async ({ db, principal, params }) => {
  return Response.json({ ok: true, learning: learningOut(await getLearning(db, principal, params.id)) });
});

export const PATCH = guard<Params>("write", async ({ request, db, principal, params, maxBodyBytes }) => {
  const learning = await editLearning(db, principal, params.id, await parseBody(request, z.unknown(), maxBodyBytes));
  return Response.json({ ok: true, learning: learningOut(learning) });
});

export const DELETE = guard<Params>("write", async ({ db, principal, params }) => {
  await removeLearning(db, principal, params.id);
  return Response.json({ ok: true, deleted: params.id });
});
