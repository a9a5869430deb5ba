import { guard } from "@/lib/auth/guard";
import { claimSession } from "@/lib/sessions/claim-session";
import { sessionOutSchema } from "@/lib/sessions/session-schemas";

export const POST = guard<{ id: string }>("write", async ({ db, principal, params }) => {
  const session = await claimSession(db, principal, params.id);
  return Response.json({ ok: true, session: sessionOutSchema.parse(session) });
});
