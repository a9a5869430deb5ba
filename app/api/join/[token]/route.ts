import { parseBody } from "@/lib/api/parse-body";
import { publicRoute } from "@/lib/auth/guard";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { invitationByLink, joinSchema, joinWithNewAccount, toLinkInvitationOut } from "@/lib/projects/invitation-links";

// Public: the link's secret is the credential. Every dead link answers the same 404.

/** The invitation a link opens: project, invited email, role, who invited. */
export const GET = publicRoute<{ token: string }>(async ({ params }) => {
  return Response.json({ ok: true, invitation: toLinkInvitationOut(await invitationByLink(getDb(), params.token)) });
});

/** `{ name, password }`: creates the invited email's account, a member of the project from now on. */
export const POST = publicRoute<{ token: string }>(async ({ request, params }) => {
  const body = await parseBody(request, joinSchema, getConfig().maxBodyBytes);
  const { user, project } = await joinWithNewAccount(getDb(), params.token, body);
  return Response.json({ ok: true, user: { email: user.email, name: user.name }, project }, { status: 201 });
});
