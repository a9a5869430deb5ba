import { guard } from "@/lib/auth/guard";
import { completeSession } from "@/lib/sessions/finish-session";
import { sessionOutSchema } from "@/lib/sessions/session-schemas";

export const POST = guard<{ id: string }>("write", async ({ db, principal, params }) => {
  const session = await completeSession(db, principal, params.id);
  return Response.json({ ok: true, session: sessionOutSchema.parse(session) });
});
