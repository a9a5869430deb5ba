import type { Metadata } from "next";
import { headers } from "next/headers";
import { ChangePasswordForm, SignOutOthersForm } from "@/components/settings/account-forms";
import { authFor } from "@/lib/auth/auth";
import { requireUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Your account" };

/** What the password form said before it sent the browser here. */
const CHANGED: Record<string, string> = {
  password: "Password changed.",
  alone: "Password changed. You are signed out everywhere else.",
};

export default async function AccountPage({ searchParams }: { searchParams: Promise<{ changed?: string }> }) {
  const { user } = await requireUser();
  const { changed } = await searchParams;
  const requestHeaders = await headers();
  const sessions = await authFor(requestHeaders).api.listSessions({ headers: requestHeaders });
  return (
    <div className="stack-lg">
      <section>
        <h1>Your account</h1>
        <p className="muted">
          Signed in as {user.name} ({user.email}).
        </p>
      </section>
      <section className="card">
        <h2>Password</h2>
        {changed && Object.hasOwn(CHANGED, changed) ? (
          <p className="notice notice-ok" role="status">
            {CHANGED[changed]}
          </p>
        ) : null}
        <ChangePasswordForm />
      </section>
      <section className="card">
        <h2>Other sessions</h2>
        <SignOutOthersForm others={Math.max(0, sessions.length - 1)} />
      </section>
    </div>
  );
}
