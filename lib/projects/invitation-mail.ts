import "server-only";
import { after } from "next/server";
import type { Db } from "../db/client";
import { setMailState } from "../db/queries/invitations";
import { getUser } from "../db/queries/users";
import { sendMail, type Mail } from "../mail/send-mail";

export type InvitationToMail = {
  id: string;
  projectId: string;
  projectName: string;
  email: string;
  role: string;
  url: string;
  linkHash: string;
  linkExpiresAt: Date;
  invitedBy: string;
};

/** The mail an invitee gets: who invited them to what, as what, and the link with its last day. */
export function invitationMail(invitation: Omit<InvitationToMail, "id" | "projectId" | "linkHash" | "invitedBy">, inviter: { name: string; email: string } | undefined): Mail {
  const who = inviter ? `${inviter.name} (${inviter.email})` : "An owner";
  return {
    to: invitation.email,
    subject: `${inviter?.name ?? "An owner"} invited you to ${invitation.projectName} on Baton`,
    text: [
      `${who} invited you to join the project "${invitation.projectName}" on Baton as ${invitation.role}.`,
      "",
      `Open this link to join. It works once, until ${invitation.linkExpiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC:`,
      invitation.url,
      "",
      "Without an account yet, you create one there with your own password.",
      "If you did not expect this invitation, ignore this mail.",
      "",
    ].join("\n"),
  };
}

/**
 * Mails the link after the response is sent, so the owner's form never waits on a slow mail server;
 * how it went is kept on the invitation (the owners' list shows a failure as "not mailed, copy the link").
 */
export function mailInvitationLater(db: Db, invitation: InvitationToMail): void {
  after(async () => {
    const state = { id: invitation.id, projectId: invitation.projectId, linkHash: invitation.linkHash };
    try {
      await sendMail(invitationMail(invitation, await getUser(db, { userId: invitation.invitedBy })));
      await setMailState(db, { ...state, mailState: "sent" });
    } catch (error) {
      console.error(`baton: the invitation mail to ${invitation.email} was not sent: ${error instanceof Error ? error.message : String(error)}`);
      await setMailState(db, { ...state, mailState: "failed" });
    }
  });
}
