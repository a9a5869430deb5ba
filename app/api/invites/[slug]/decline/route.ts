import { guard } from "@/lib/auth/guard";
import { declineInvitation } from "@/lib/projects/invitations";

export const POST = guard<{ slug: string }>("write", async ({ db, principal, params }) => {
  await declineInvitation(db, principal, params.slug);
  return Response.json({ ok: true, declined: params.slug });
});
