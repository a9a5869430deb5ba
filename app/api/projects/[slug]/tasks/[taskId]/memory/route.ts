import { parseBody } from "@/lib/api/parse-body";
import { guard } from "@/lib/auth/guard";
import { taskMemoryOutSchema } from "@/lib/tasks/task-schemas";
import { getTaskMemory, putTaskMemory } from "@/lib/tasks/task-memory";
import { z } from "zod";

type Params = { slug: string; taskId: string };

export const GET = guard<Params>("read", async ({ db, principal, params }) => {
  const memory = await getTaskMemory(db, principal, params.slug, params.taskId);
  return Response.json({ ok: true, memory: taskMemoryOutSchema.parse(memory) });
});

export const PUT = guard<Params>("write", async ({ request, db, principal, params, maxBodyBytes }) => {
  const body = await parseBody(request, z.unknown(), maxBodyBytes);
  const memory = await putTaskMemory(db, principal, params.slug, params.taskId, body);
  return Response.json({ ok: true, memory: taskMemoryOutSchema.parse(memory) });
});
