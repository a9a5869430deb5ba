import { originFromHeaders } from "@/lib/api/origin-from-headers";
import { parseBody } from "@/lib/api/parse-body";
import { guard } from "@/lib/auth/guard";
import { getConfig } from "@/lib/config";
import { inviteWithLink, sharedLinkMessage } from "@/lib/projects/invitation-links";
import { listProjectInvitations, projectInvitationOutSchema } from "@/lib/projects/invitations";
import { z } from "zod";

/** Owners: the project's pending invitations. */
export const GET = guard<{ slug: string }>("read", async ({ db, principal, params }) => {
  const items = await listProjectInvitations(db, principal, params.slug);
  return Response.json({ ok: true, items: z.array(projectInvitationOutSchema).parse(items), nextCursor: null });
});

/**
 * Owners: `{ email, role }`. The same 202, with a link shown this once, whether the email has an
 * account, is invited already or is a member: the answer tells nobody who has an account.
 */
export const POST = guard<{ slug: string }>("write", async ({ request, db, principal, params, maxBodyBytes }) => {
  const body = await parseBody(request, z.unknown(), maxBodyBytes);
  const invitation = await inviteWithLink(db, principal, params.slug, body, originFromHeaders(request.headers, getConfig().baseUrl));
  return Response.json({ ok: true, invitation, message: sharedLinkMessage(invitation) }, { status: 202 });
});
