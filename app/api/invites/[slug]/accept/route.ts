import { guard } from "@/lib/auth/guard";
import { acceptInvitation } from "@/lib/projects/invitations";

/** The invitee joins the project with the role they were invited as. */
export const POST = guard<{ slug: string }>("write", async ({ db, principal, params }) => {
  return Response.json({ ok: true, project: await acceptInvitation(db, principal, params.slug) });
});
