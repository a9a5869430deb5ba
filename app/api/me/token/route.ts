import { revokeOwnToken } from "@/lib/auth/api-tokens";
import { guard } from "@/lib/auth/guard";

/**
 * The token that sends this revokes itself (`baton logout`). A write like any other: a read token
 * never changes anything, itself included (it is revoked in the dashboard).
 */
export const DELETE = guard("write", async ({ db, principal }) => {
  return Response.json({ ok: true, revoked: await revokeOwnToken(db, principal) });
});
