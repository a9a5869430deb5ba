"use server";

import { APIError } from "better-auth/api";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getAuth } from "../auth/auth";
import { createFirstUser } from "../auth/create-user";
import { signInLimiter } from "../auth/sign-in-limiter";
import { getDb } from "../db/client";
import { formError } from "./form-errors";
import type { FormState } from "./form-state";

const signInSchema = z.object({
  email: z.email({ message: "Enter your email address." }),
  password: z.string().min(1, { message: "Enter your password." }).max(256),
});

function safeNext(value: FormDataEntryValue | null): string {
  const next = typeof value === "string" ? value : "";
  // Only paths on this site: "//evil.example" and absolute URLs are open redirects.
  return next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

export async function signInAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = { email: String(form.get("email") ?? "") };
  const parsed = signInSchema.safeParse({ email: form.get("email"), password: form.get("password") });
  if (!parsed.success) return { ...formError(parsed.error), values };
  // auth.api calls skip better-auth's HTTP rate limiting, so failed attempts are counted here.
  const wait = signInLimiter.retryAfter(parsed.data.email);
  if (wait > 0) {
    return { ok: false, message: `Too many failed sign-ins for this email. Try again in ${Math.ceil(wait / 60_000)} min.`, values };
  }
  try {
    await getAuth().api.signInEmail({ body: parsed.data, headers: await headers() });
  } catch (error) {
    if (error instanceof APIError) {
      signInLimiter.recordFailure(parsed.data.email);
      return { ok: false, message: "Wrong email or password.", values };
    }
    throw error;
  }
  signInLimiter.recordSuccess(parsed.data.email);
  redirect(safeNext(form.get("next")));
}

export async function setupAction(_prev: FormState, form: FormData): Promise<FormState> {
  const input = { name: String(form.get("name") ?? ""), email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") };
  const values = { name: input.name, email: input.email };
  if (form.get("password") !== form.get("confirm")) {
    return { ok: false, message: "Check the highlighted fields.", fieldErrors: { confirm: "The passwords differ." }, values };
  }
  try {
    await createFirstUser(getDb(), input);
  } catch (error) {
    return { ...formError(error), values };
  }
  await getAuth().api.signInEmail({ body: { email: input.email, password: input.password }, headers: await headers() });
  redirect("/");
}

export async function signOutAction(): Promise<void> {
  await getAuth().api.signOut({ headers: await headers() });
  redirect("/sign-in");
}
