"use server";

import { APIError } from "better-auth/api";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { ApiError } from "../api/errors";
import { authFor } from "../auth/auth";
import { formAction } from "./form-action";

// One's own account: a new password, and the other places one is signed in. better-auth keeps the
// password hash and the sessions; these actions only ask it, as the signed-in user.

/** The limits better-auth is configured with (lib/auth/auth.ts): said on the form before it says them. */
const passwordForm = z
  .object({
    current: z.string().min(1, { message: "Enter your current password." }).max(256),
    password: z.string().min(8, { message: "At least 8 characters." }).max(256, { message: "At most 256 characters." }),
    confirm: z.string(),
    signOutOthers: z.literal("on").optional(),
  })
  .refine((f) => f.password === f.confirm, { path: ["confirm"], message: "The passwords differ." })
  .refine((f) => f.password !== f.current, { path: ["password"], message: "The new password is the current one." });

export const changePasswordAction = formAction(passwordForm, async ({ current, password, signOutOthers }) => {
  const requestHeaders = await headers();
  try {
    await authFor(requestHeaders).api.changePassword({ body: { currentPassword: current, newPassword: password, revokeOtherSessions: signOutOthers === "on" }, headers: requestHeaders });
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    throw new ApiError("validation_failed", "The current password is wrong.", [{ path: ["current"], message: "The current password is wrong.", code: "custom" }]);
  }
  // The page is shown again by a new request: this one still carries the session cookie just replaced.
  redirect(`/settings/account?changed=${signOutOthers === "on" ? "alone" : "password"}`);
});

export const signOutOthersAction = formAction(z.object({}), async () => {
  const requestHeaders = await headers();
  await authFor(requestHeaders).api.revokeOtherSessions({ headers: requestHeaders });
  return { message: "You are signed out everywhere else. API tokens are not affected: revoke those under API tokens." };
});
