import { z } from "zod";
import { disableUserAccount, enableUserAccount, requireAdmin, setUserRole } from "@/lib/admin/users";
import { parseBody } from "@/lib/api/parse-body";
import { guard } from "@/lib/auth/guard";
import { USER_ROLES } from "@/lib/rules";

const changeSchema = z.union([z.object({ role: z.enum(USER_ROLES) }).strict(), z.object({ disabled: z.boolean() }).strict()]);

/** Admins: `{ role }` promotes or demotes, `{ disabled }` disables or enables. The role is checked before the body is read. */
export const PATCH = guard<{ id: string }>("write", async ({ request, db, principal, params, maxBodyBytes }) => {
  await requireAdmin(db, principal);
  const change = await parseBody(request, changeSchema, maxBodyBytes);
  const userId = params.id;
  if ("role" in change) return Response.json({ ok: true, user: await setUserRole(db, principal, { userId, role: change.role }) });
  const user = change.disabled ? await disableUserAccount(db, principal, { userId }) : await enableUserAccount(db, principal, { userId });
  return Response.json({ ok: true, user: { ...user, disabled: change.disabled } });
});
