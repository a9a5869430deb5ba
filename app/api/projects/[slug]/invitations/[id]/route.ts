import { guard } from "@/lib/auth/guard";
import { revokeInvitation } from "@/lib/projects/invitations";

/** Owners: withdraw a pending invitation. */
export const DELETE = guard<{ slug: string; id: string }>("write", async ({ db, principal, params }) => {
  await revokeInvitation(db, principal, params.slug, { id: params.id });
  return Response.json({ ok: true, revoked: params.id });
});
