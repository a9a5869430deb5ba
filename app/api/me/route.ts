import { describeCaller } from "@/lib/auth/api-tokens";
import { guard } from "@/lib/auth/guard";

/** Who is asking: the account, and the token it sent (`baton whoami`). */
export const GET = guard("read", async ({ db, principal }) => {
  return Response.json({ ok: true, ...(await describeCaller(db, principal)) });
});
