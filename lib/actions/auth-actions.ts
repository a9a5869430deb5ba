"use server";

import { APIError } from "better-auth/api";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { ApiError } from "../api/errors";
import { authFor } from "../auth/auth";
import { clientAddress } from "../auth/connection-security";
import { createFirstUser } from "../auth/create-user";
import { sameOriginPath } from "../auth/same-origin-path";
import { resetPasswordByLink } from "../admin/users";
import { dropSetupCode, setupAllowed } from "../auth/setup-code";
import { checkPasswordLimited } from "../auth/sign-in-limiter";
import { getConfig } from "../config";
import { serverOrigin } from "../dashboard/server-origin";
import { getDb } from "../db/client";
import { noteIfUnavailable } from "../db/outage";
import { deleteAuthSession } from "../db/queries/users";
import { joinWithNewAccount } from "../projects/invitation-links";
import { publicFormAction } from "./form-action";

const signInForm = z.object({
  email: z.email({ message: "Enter your email address." }),
  password: z.string().min(1, { message: "Enter your password." }).max(256),
  /** The page to return to after signing in. */
  next: z.string().optional(),
});

/** The new user's fields are checked by createFirstUser; the form only has to agree with itself. */
const setupForm = z
  .object({ name: z.string(), email: z.string(), password: z.string(), confirm: z.string(), code: z.string().max(100).optional() })
  .refine((f) => f.password === f.confirm, { path: ["confirm"], message: "The passwords differ." });

/** Signs in through the instance whose cookie suits this connection (see authFor). */
async function signIn(email: string, password: string): Promise<void> {
  const requestHeaders = await headers();
  await authFor(requestHeaders).api.signInEmail({ body: { email, password }, headers: requestHeaders });
}

export const signInAction = publicFormAction(
  signInForm,
  async ({ email, password, next }) => {
    // auth.api calls skip better-auth's HTTP rate limiting, so failed attempts are counted here.
    const attempt = { email, client: clientAddress(await headers(), getConfig().trustProxy) };
    await checkPasswordLimited(attempt, () => signIn(email, password), (error) => (error instanceof APIError ? new ApiError("unauthorized", "Wrong email or password.") : null));
    redirect(sameOriginPath(next, await serverOrigin()));
  },
  { echo: ["email"] },
);

export const setupAction = publicFormAction(
  setupForm,
  async ({ name, email, password, code }) => {
    if (!setupAllowed(await headers(), code)) {
      throw new ApiError("forbidden", "Setting up from another machine needs the setup code the server printed on its console when it started.");
    }
    await createFirstUser(getDb(), { name, email, password });
    dropSetupCode();
    await signIn(email, password);
    redirect("/");
  },
  { echo: ["name", "email"] },
);

/** Joining by an invitation link: the account's fields are checked by joinWithNewAccount. */
const joinForm = z
  .object({ token: z.string().max(200), name: z.string(), password: z.string(), confirm: z.string() })
  .refine((f) => f.password === f.confirm, { path: ["confirm"], message: "The passwords differ." });

export const joinAction = publicFormAction(
  joinForm,
  async ({ token, name, password }) => {
    const { user, project } = await joinWithNewAccount(getDb(), token, { name, password });
    await signIn(user.email, password);
    redirect(`/projects/${project.slug}`);
  },
  { echo: ["name"] },
);

/** Setting a new password through an admin's reset link: the password's limits are resetPasswordByLink's. */
const resetForm = z
  .object({ token: z.string().max(200), password: z.string(), confirm: z.string() })
  .refine((f) => f.password === f.confirm, { path: ["confirm"], message: "The passwords differ." });

export const resetPasswordAction = publicFormAction(resetForm, async ({ token, password }) => {
  await resetPasswordByLink(getDb(), token, { password });
  // Signed out everywhere: the person signs in with the new password, which proves it works.
  redirect("/sign-in?reset=1");
});

/**
 * Signs out: the session ends on the server, not only in this browser. better-auth's sign-out clears
 * the cookie even when it could not delete the session (the database out of reach), which would stay
 * valid for any copy of the cookie: the session is read first (an outage throws there, and nothing
 * claims to be signed out) and deleted again after, which also throws when it cannot be.
 */
export async function signOutAction(): Promise<void> {
  const requestHeaders = await headers();
  const auth = authFor(requestHeaders);
  const current = await auth.api.getSession({ headers: requestHeaders }).catch((error: unknown) => {
    noteIfUnavailable(error);
    throw error;
  });
  await auth.api.signOut({ headers: requestHeaders });
  if (current) await deleteAuthSession(getDb(), current.session.token);
  redirect("/sign-in");
}
