"use server";

import { APIError } from "better-auth/api";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { ApiError } from "../api/errors";
import { authFor } from "../auth/auth";
import { createFirstUser } from "../auth/create-user";
import { signInLimiter } from "../auth/sign-in-limiter";
import { getDb } from "../db/client";
import { publicFormAction } from "./form-action";

const signInForm = z.object({
  email: z.email({ message: "Enter your email address." }),
  password: z.string().min(1, { message: "Enter your password." }).max(256),
  /** The page to return to after signing in. */
  next: z.string().optional(),
});

/** The new user's fields are checked by createFirstUser; the form only has to agree with itself. */
const setupForm = z
  .object({ name: z.string(), email: z.string(), password: z.string(), confirm: z.string() })
  .refine((f) => f.password === f.confirm, { path: ["confirm"], message: "The passwords differ." });

function safeNext(next: string | undefined): string {
  // Only paths on this site: "//evil.example" and absolute URLs are open redirects.
  return next?.startsWith("/") && !next.startsWith("//") ? next : "/";
}

/** Signs in through the instance whose cookie suits this connection (see authFor). */
async function signIn(email: string, password: string): Promise<void> {
  const requestHeaders = await headers();
  await authFor(requestHeaders).api.signInEmail({ body: { email, password }, headers: requestHeaders });
}

export const signInAction = publicFormAction(
  signInForm,
  async ({ email, password, next }) => {
    // auth.api calls skip better-auth's HTTP rate limiting, so failed attempts are counted here.
    const wait = signInLimiter.retryAfter(email);
    if (wait > 0) throw new ApiError("rate_limited", `Too many failed sign-ins for this email. Try again in ${Math.ceil(wait / 60_000)} min.`);
    try {
      await signIn(email, password);
    } catch (error) {
      if (!(error instanceof APIError)) throw error;
      signInLimiter.recordFailure(email);
      throw new ApiError("unauthorized", "Wrong email or password.");
    }
    signInLimiter.recordSuccess(email);
    redirect(safeNext(next));
  },
  { echo: ["email"] },
);

export const setupAction = publicFormAction(
  setupForm,
  async ({ name, email, password }) => {
    await createFirstUser(getDb(), { name, email, password });
    await signIn(email, password);
    redirect("/");
  },
  { echo: ["name", "email"] },
);

export async function signOutAction(): Promise<void> {
  const requestHeaders = await headers();
  await authFor(requestHeaders).api.signOut({ headers: requestHeaders });
  redirect("/sign-in");
}
