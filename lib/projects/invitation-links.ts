import "server-only";
import { hashPassword } from "better-auth/crypto";
import { z } from "zod";
import { ApiError } from "../api/errors";
import { recordAudit } from "../audit/record-audit";
import type { Principal } from "../auth/principal";
import { newUserSchema } from "../auth/create-user";
import type { Db } from "../db/client";
import { decideInvitation, findByLink, replaceLink, type InvitationByLinkRow } from "../db/queries/invitations";
import { insertMember } from "../db/queries/members";
import { findUserByEmail, getUser, insertUserWithPassword, type PublicUser } from "../db/queries/users";
import { mailConfigured } from "../mail/send-mail";
import { acceptInvitation, invitationIdSchema, inviteMember, toMyInvitationOut } from "./invitations";
import { joinUrl, linkHashOf, newLink } from "./invitation-link-secret";
import { mailInvitationLater } from "./invitation-mail";
import { requireProject } from "./projects";

// Invitation links (issue 24): each pending invitation has a secret link, kept only as its hash, that
// works once and for INVITATION_LINK_DAYS. Whoever holds it sees the invitation; someone without an
// account creates one with the invited email (and their own name and password) and is a member at
// once; the account with that email accepts with one click. Every dead link (unknown, expired,
// replaced, revoked, used) gets the same answer, so the page tells nothing about which it was.

/** The one answer for a link that does not open an invitation, whatever the reason. */
export const DEAD_LINK_MESSAGE =
  "This invitation link cannot be used: it may have expired, been replaced by a newer link, been withdrawn or been used already. Ask whoever invited you for a new one.";

/** What the owner gets after inviting or making a new link: the link itself (shown once) and whether it is being mailed. */
export type SharedLink = { email: string; role: string; link: string; mailed: boolean };

/** The invitation as the person holding its link sees it. */
export const linkInvitationOutSchema = z.object({
  project: z.object({ slug: z.string(), name: z.string() }),
  email: z.string(),
  role: z.string(),
  invitedBy: z.object({ name: z.string(), email: z.string() }).nullable(),
});

/** The owner's message once the link exists: mailed, or to be copied. */
export function sharedLinkMessage(shared: SharedLink): string {
  return shared.mailed
    ? `Invitation sent to ${shared.email}; the link is being mailed to them (if it cannot be, the list below says so). It is shown here once.`
    : `Invitation sent to ${shared.email}. Copy the link and send it to them: it is shown here once.`;
}

/** Invites (see inviteMember) and hands the owner the link; mails it when this server mails. */
export async function inviteWithLink(db: Db, principal: Principal, slug: string, input: unknown, origin: string): Promise<SharedLink> {
  const invited = await inviteMember(db, principal, slug, input);
  const link = joinUrl(origin, invited.token);
  if (invited.stored && mailConfigured()) mailInvitationLater(db, { ...invited.stored, email: invited.email, url: link, invitedBy: principal.userId });
  return { email: invited.email, role: invited.role, link, mailed: mailConfigured() };
}

/** An owner makes a new link for a pending invitation: the old one stops working. */
export async function renewInvitationLink(db: Db, principal: Principal, slug: string, input: unknown, origin: string): Promise<SharedLink> {
  const project = await requireProject(db, principal, slug, "owner");
  const { id } = invitationIdSchema.parse(input);
  const { token, link } = await newLink();
  // The owner who renews it vouches for it now (an invitation stands on its inviter's authority).
  const invitation = await replaceLink(db, { projectId: project.id, match: { id }, again: { invitedBy: principal.userId }, ...link });
  if (!invitation) throw new ApiError("not_found", `No pending invitation with that id in "${slug}".`);
  await recordAudit(db, principal.userId, { action: "edit", subject: "invitation", subjectId: id, label: invitation.email, projectId: project.id, detail: "new link" });
  const url = joinUrl(origin, token);
  if (mailConfigured()) {
    mailInvitationLater(db, { ...invitation, ...link, projectId: project.id, projectName: project.name, url, invitedBy: principal.userId });
  }
  return { email: invitation.email, role: invitation.role, link: url, mailed: mailConfigured() };
}

/** The invitation a link opens; not_found with DEAD_LINK_MESSAGE for every link that opens none. */
export async function invitationByLink(db: Db, token: string): Promise<InvitationByLinkRow> {
  const linkHash = await linkHashOf(token);
  const invitation = linkHash ? await findByLink(db, { linkHash, now: new Date() }) : undefined;
  if (!invitation) throw new ApiError("not_found", DEAD_LINK_MESSAGE);
  return invitation;
}

export const toLinkInvitationOut = (row: InvitationByLinkRow) => linkInvitationOutSchema.parse({ ...toMyInvitationOut(row), email: row.email });

/** Someone new takes the link: their own name and password, the invited email. */
export const joinSchema = newUserSchema.pick({ name: true, password: true });

/**
 * Creates the invited email's account and makes it a member with the invited role, in one
 * transaction that also uses the link up; refused when that email has an account (it signs in and
 * accepts instead). Returns the account and the project joined.
 */
export async function joinWithNewAccount(db: Db, token: string, input: unknown): Promise<{ user: PublicUser; project: { slug: string; name: string; role: string } }> {
  const { name, password } = joinSchema.parse(input);
  const invitation = await invitationByLink(db, token);
  const taken = () => new ApiError("conflict", `An account with the email ${invitation.email} exists already: sign in, then open this link again to accept.`);
  if (await findUserByEmail(db, { email: invitation.email })) throw taken();
  // scrypt takes a while: outside the transaction, which then holds the write lock only briefly.
  const passwordHash = await hashPassword(password);
  const user = await db.transaction(async (tx) => {
    const accepted = await decideInvitation(tx, { id: invitation.id, projectId: invitation.projectId, status: "accepted" });
    if (!accepted) throw new ApiError("not_found", DEAD_LINK_MESSAGE);
    const created = await insertUserWithPassword(tx, { id: crypto.randomUUID(), email: accepted.email, name, passwordHash });
    // Another sign-up of this email (a second project's link) won the race since the check above.
    if (!created) throw taken();
    await insertMember(tx, { projectId: invitation.projectId, userId: created.id, role: accepted.role });
    await recordAudit(tx, created.id, { action: "accept", subject: "invitation", subjectId: invitation.id, label: accepted.email, projectId: invitation.projectId, detail: `as ${accepted.role}, new account` });
    return created;
  });
  return { user, project: { slug: invitation.slug, name: invitation.name, role: invitation.role } };
}

/** The signed-in user accepts the invitation a link opens: only when it was sent to their email. */
export async function acceptByLink(db: Db, principal: Principal, token: string): Promise<{ slug: string; name: string; role: string }> {
  const invitation = await invitationByLink(db, token);
  const user = await getUser(db, { userId: principal.userId });
  if (user?.email.toLowerCase() !== invitation.email) throw new ApiError("forbidden", otherEmailMessage(invitation.email, user?.email ?? "another account"));
  return acceptInvitation(db, principal, invitation.slug);
}

/** What someone signed in with another account is told. */
export const otherEmailMessage = (invited: string, signedIn: string) =>
  `This invitation is for ${invited}, and you are signed in as ${signedIn}. Sign out, then open the link again.`;
