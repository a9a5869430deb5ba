import { guard } from "@/lib/auth/guard";
import { acceptByLink } from "@/lib/projects/invitation-links";

/** The account the link's invitation was sent to accepts it (signed in, or with a token of theirs). */
export const POST = guard<{ token: string }>("write", async ({ db, principal, params }) => {
  return Response.json({ ok: true, project: await acceptByLink(db, principal, params.token) });
});
