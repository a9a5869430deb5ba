import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { getSessionUser, needsSetup } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string; reset?: string }> }) {
  if (await needsSetup()) redirect("/setup");
  if (await getSessionUser()) redirect("/");
  const { next, reset } = await searchParams;
  return (
    <>
      <h1>Sign in</h1>
      {reset ? (
        <p className="notice notice-ok" role="status">
          Your new password is set, and you are signed out everywhere. Sign in with it.
        </p>
      ) : null}
      <SignInForm next={typeof next === "string" ? next : "/"} />
    </>
  );
}
