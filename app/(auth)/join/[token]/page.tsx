import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { JoinForm } from "@/components/auth/join-form";
import { ActionForm } from "@/components/ui/action-form";
import { signOutAction } from "@/lib/actions/auth-actions";
import { acceptLinkAction } from "@/lib/actions/invitation-actions";
import { isExpectedError } from "@/lib/api/errors";
import { getSessionUser } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { DEAD_LINK_MESSAGE, invitationByLink, otherEmailMessage } from "@/lib/projects/invitation-links";

export const metadata: Metadata = { title: "Join a project", referrer: "no-referrer" };

/**
 * An invitation link's page: for someone without an account, a form that creates one with the invited
 * email; for the invited account signed in, one button to accept; for anyone else signed in, who the
 * link is for. A dead link gets one message, whatever made it dead.
 */
export default async function JoinPage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const { token } = await params;
  const invitation = await invitationByLink(getDb(), token).catch((error: unknown) => {
    if (isExpectedError(error)) return null;
    throw error;
  });
  if (!invitation) {
    return (
      <>
        <h1>Invitation link</h1>
        <p className="notice notice-error" role="alert" data-testid="dead-link">
          {DEAD_LINK_MESSAGE}
        </p>
      </>
    );
  }
  const user = await getSessionUser();
  const from = invitation.invitedBy ? `${invitation.invitedBy.name} (${invitation.invitedBy.email})` : "An owner";
  return (
    <>
      <h1>Join {invitation.name}</h1>
      <p>
        {from} invited <strong>{invitation.email}</strong> to the project <strong>{invitation.name}</strong> as{" "}
        <strong>{invitation.role}</strong>.
      </p>
      {!user ? (
        <>
          <JoinForm token={token} email={invitation.email} />
          <p className="muted">
            Have an account with this email already? <Link href={`/sign-in?next=${encodeURIComponent(`/join/${token}`)}`}>Sign in</Link>, and you come
            back here to accept.
          </p>
        </>
      ) : user.email.toLowerCase() === invitation.email ? (
        <ActionForm action={acceptLinkAction} fields={{ token }} variant="primary">
          Accept and join {invitation.name}
        </ActionForm>
      ) : (
        <>
          <p className="notice notice-error" role="alert">
            {otherEmailMessage(invitation.email, user.email)}
          </p>
          <form action={signOutAction}>
            <button type="submit" className="btn btn-secondary">
              Sign out
            </button>
          </form>
        </>
      )}
    </>
  );
}
