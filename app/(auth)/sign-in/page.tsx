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
      {/* Nobody can sign up here (accounts come from the first-run setup, an invitation or an admin): say
          so, or a person who was never invited is left guessing at a form that only ever says no. */}
      <p className="muted" data-testid="no-account">
        No account yet? Accounts here come with an invitation: ask an owner of your team&apos;s project for an invitation
        link. Forgot your password? An admin of this server can make you a reset link.
      </p>
    </>
  );
}
