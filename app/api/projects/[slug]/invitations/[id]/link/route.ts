import { originFromHeaders } from "@/lib/api/origin-from-headers";
import { guard } from "@/lib/auth/guard";
import { getConfig } from "@/lib/config";
import { renewInvitationLink, sharedLinkMessage } from "@/lib/projects/invitation-links";

/** Owners: a new link for a pending invitation, shown this once; the old link stops working. */
export const POST = guard<{ slug: string; id: string }>("write", async ({ request, db, principal, params }) => {
  const origin = originFromHeaders(request.headers, getConfig().baseUrl);
  const invitation = await renewInvitationLink(db, principal, params.slug, { id: params.id }, origin);
  return Response.json({ ok: true, invitation, message: sharedLinkMessage(invitation) });
});
