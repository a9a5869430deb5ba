import { guard } from "@/lib/auth/guard";
import { claimNextSession } from "@/lib/sessions/claim-session";
import { sessionOutSchema } from "@/lib/sessions/session-schemas";

export const POST = guard<{ slug: string }>("write", async ({ db, principal, params }) => {
  const session = await claimNextSession(db, principal, params.slug);
  return Response.json({ ok: true, session: sessionOutSchema.parse(session) });
});
