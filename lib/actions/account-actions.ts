"use server";

import { APIError } from "better-auth/api";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { ApiError } from "../api/errors";
import { authFor } from "../auth/auth";
import { clientAddress } from "../auth/connection-security";
import { checkPasswordLimited } from "../auth/sign-in-limiter";
import { getConfig } from "../config";
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

const WRONG_CURRENT = "The current password is wrong.";

export const changePasswordAction = formAction(passwordForm, async ({ current, password, signOutOthers }, { user }) => {
  const requestHeaders = await headers();
  // Counted with sign-in's failures: a session left open must not buy unlimited guesses of the password.
  const attempt = { email: user.email, client: clientAddress(requestHeaders, getConfig().trustProxy) };
  const change = () => authFor(requestHeaders).api.changePassword({ body: { currentPassword: current, newPassword: password, revokeOtherSessions: signOutOthers === "on" }, headers: requestHeaders });
  await checkPasswordLimited(attempt, async () => void (await change()), (error) =>
    error instanceof APIError ? new ApiError("validation_failed", WRONG_CURRENT, [{ path: ["current"], message: WRONG_CURRENT, code: "custom" }]) : null,
  );
  // The page is shown again by a new request: this one still carries the session cookie just replaced.
  redirect(`/settings/account?changed=${signOutOthers === "on" ? "alone" : "password"}`);
});

export const signOutOthersAction = formAction(z.object({}), async () => {
  const requestHeaders = await headers();
  await authFor(requestHeaders).api.revokeOtherSessions({ headers: requestHeaders });
  return { message: "You are signed out everywhere else. API tokens are not affected: revoke those under API tokens." };
});
