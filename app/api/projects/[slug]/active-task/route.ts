import { parseBody } from "@/lib/api/parse-body";
import { guard } from "@/lib/auth/guard";
import { clearActiveTask, getActiveTask, setActiveTask } from "@/lib/tasks/active-task";
import { activeTaskOutSchema } from "@/lib/tasks/task-schemas";
import { z } from "zod";

export const GET = guard<{ slug: string }>("read", async ({ db, principal, params }) => {
  const activeTask = await getActiveTask(db, principal, params.slug);
  return Response.json({ ok: true, activeTask: activeTaskOutSchema.parse(activeTask) });
});

export const PUT = guard<{ slug: string }>("write", async ({ request, db, principal, params, maxBodyBytes }) => {
  const body = await parseBody(request, z.unknown(), maxBodyBytes);
  const activeTask = await setActiveTask(db, principal, params.slug, body);
  return Response.json({ ok: true, activeTask: activeTaskOutSchema.parse(activeTask) });
});

export const DELETE = guard<{ slug: string }>("write", async ({ db, principal, params }) => {
  await clearActiveTask(db, principal, params.slug);
  return Response.json({ ok: true, activeTask: null });
});
