import { makeResetLink } from "@/lib/admin/users";
import { originFromHeaders } from "@/lib/api/origin-from-headers";
import { guard } from "@/lib/auth/guard";
import { getConfig } from "@/lib/config";

/** Admins: a one-time password reset link for the user, shown this once (and mailed when this server mails). */
export const POST = guard<{ id: string }>("write", async ({ request, db, principal, params }) => {
  const origin = originFromHeaders(request.headers, getConfig().baseUrl);
  return Response.json({ ok: true, reset: await makeResetLink(db, principal, { userId: params.id }, origin) });
});
