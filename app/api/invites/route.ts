import { guard } from "@/lib/auth/guard";
import { listMyInvitations, toMyInvitationOut } from "@/lib/projects/invitations";

/** The caller's pending invitations: `baton invites`. */
export const GET = guard("read", async ({ db, principal }) => {
  const items = await listMyInvitations(db, principal);
  return Response.json({ ok: true, items: items.map(toMyInvitationOut), nextCursor: null });
});
