import { resetLinkUser, resetPasswordByLink, resetPasswordSchema } from "@/lib/admin/users";
import { parseBody } from "@/lib/api/parse-body";
import { publicRoute } from "@/lib/auth/guard";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";

// Public: the link's secret is the credential. Every dead link answers the same 404.

/** Whose password a reset link sets. */
export const GET = publicRoute<{ token: string }>(async ({ params }) => {
  const { name, email } = await resetLinkUser(getDb(), params.token);
  return Response.json({ ok: true, user: { name, email } });
});

/** `{ password }`: sets it, uses the link up and signs the account out everywhere. */
export const POST = publicRoute<{ token: string }>(async ({ request, params }) => {
  const body = await parseBody(request, resetPasswordSchema, getConfig().maxBodyBytes);
  return Response.json({ ok: true, user: await resetPasswordByLink(getDb(), params.token, body) });
});
