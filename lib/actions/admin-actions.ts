"use server";

import { z } from "zod";
import { disableUserAccount, enableUserAccount, makeResetLink, setUserRole } from "../admin/users";
import { utcMinute } from "../context/pack/relative-time";
import { serverOrigin } from "../dashboard/server-origin";
import { USER_ROLES } from "../rules";
import { formAction } from "./form-action";
import type { LinkShown } from "./form-state";

// The admin page's buttons. Each domain function refuses anyone but an admin (the 404 of a missing
// route), whatever the form says: the page not showing them to members is not the check.

const adminPages = ["/admin"];
const userForm = z.object({ userId: z.string().max(100) });

export const setUserRoleAction = formAction(
  userForm.extend({ role: z.enum(USER_ROLES) }),
  async (input, { db, principal }) => {
    const done = await setUserRole(db, principal, input);
    return { message: done.role === "admin" ? `${done.email} is an admin now.` : `${done.email} is no longer an admin.` };
  },
  { revalidate: adminPages },
);

export const disableUserAction = formAction(
  userForm,
  async (input, { db, principal }) => {
    const done = await disableUserAccount(db, principal, input);
    return { message: `${done.email} is disabled: signed out everywhere, ${done.tokensRevoked} API token${done.tokensRevoked === 1 ? "" : "s"} revoked.` };
  },
  { revalidate: adminPages },
);

export const enableUserAction = formAction(
  userForm,
  async (input, { db, principal }) => {
    const done = await enableUserAccount(db, principal, input);
    return { message: `${done.email} can sign in again (their old API tokens stay revoked).` };
  },
  { revalidate: adminPages },
);

export const resetLinkAction = formAction(userForm, async (input, { db, principal }) => {
  const reset = await makeResetLink(db, principal, input, await serverOrigin());
  const until = utcMinute(reset.expiresAt);
  const message = reset.mailed
    ? `A password reset link for ${reset.email} is being mailed to them; it works once, until ${until}, and is shown here once. Any older link no longer works.`
    : `Copy this password reset link and send it to ${reset.email}: it works once, until ${until}, and is shown here once. Any older link no longer works.`;
  return { message, data: { link: reset.link } satisfies LinkShown };
});
