import { revokeOwnToken } from "@/lib/auth/api-tokens";
import { guard } from "@/lib/auth/guard";

/** The token that sends this revokes itself (`baton logout`); a read token may too. */
export const DELETE = guard("read", async ({ db, principal }) => {
  return Response.json({ ok: true, revoked: await revokeOwnToken(db, principal) });
});
