import { guard } from "@/lib/auth/guard";
import { sessionOutSchema } from "@/lib/sessions/session-schemas";
import { getSession } from "@/lib/sessions/sessions";

export const GET = guard<{ id: string }>("read", async ({ db, principal, params }) => {
  const session = await getSession(db, principal, params.id);
  return Response.json({ ok: true, session: sessionOutSchema.parse(session) });
});
