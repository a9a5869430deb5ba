import type { Metadata } from "next";
import { connection } from "next/server";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";
import { DEAD_RESET_MESSAGE, resetLinkUser } from "@/lib/admin/users";
import { isExpectedError } from "@/lib/api/errors";
import { getDb } from "@/lib/db/client";

export const metadata: Metadata = { title: "Set a new password", referrer: "no-referrer" };

/** A password reset link's page: a new password for the account it names. A dead link gets one message, whatever made it dead. */
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const { token } = await params;
  const user = await resetLinkUser(getDb(), token).catch((error: unknown) => {
    if (isExpectedError(error)) return null;
    throw error;
  });
  if (!user) {
    return (
      <>
        <h1>Password reset link</h1>
        <p className="notice notice-error" role="alert" data-testid="dead-link">
          {DEAD_RESET_MESSAGE}
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Set a new password</h1>
      <p>
        For <strong>{user.email}</strong>. Setting it signs this account out everywhere; then you sign in with it.
      </p>
      <ResetPasswordForm token={token} email={user.email} />
    </>
  );
}
