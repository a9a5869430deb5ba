import "server-only";
import { z } from "zod";
import { ApiError } from "../api/errors";
import { isoDate } from "../api/zod-fields";
import { recordAudit } from "../audit/record-audit";
import type { Principal } from "../auth/principal";
import type { Db, DbOrTx } from "../db/client";
import {
  decideInvitation,
  insertInvitation,
  replaceLink,
  listPendingForEmail,
  listPendingForProject,
  type InvitationForUserRow,
  type ProjectInvitationRow,
} from "../db/queries/invitations";
import { findMember, insertMember } from "../db/queries/members";
import { findUserByEmail, getUser } from "../db/queries/users";
import { INVITATION_MAIL_STATES, PROJECT_ROLES } from "../rules";
import { newLink } from "./invitation-link-secret";
import { requireProject } from "./projects";

// Membership by consent (issue 21): an owner invites an email with a role; the person with that email
// accepts (then, and only then, a project_members row exists) or declines. The owner's answer is the
// same whether the email has an account, is invited already or is a member already: the form is not a
// way to learn who has an account. An invitation to an email without an account waits, and shows up
// among that account's invitations once it is created.

export const inviteSchema = z.object({
  email: z
    .email({ message: "Enter the person's email address." })
    .max(254)
    .transform((email) => email.toLowerCase()),
  role: z.enum(PROJECT_ROLES),
});
export const invitationIdSchema = z.object({ id: z.string().min(1).max(100) });

const inviterOut = z.object({ name: z.string(), email: z.string() }).nullable();

/** A pending invitation as a project's owners see it. */
export const projectInvitationOutSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(PROJECT_ROLES),
  invitedBy: inviterOut,
  createdAt: isoDate,
  linkExpiresAt: isoDate.nullable(),
  linkLive: z.boolean(),
  mailState: z.enum(INVITATION_MAIL_STATES).nullable(),
});
/** A pending invitation as the invitee sees it: the project by slug and name, no internal ids. */
export const myInvitationOutSchema = z.object({
  project: z.object({ slug: z.string(), name: z.string() }),
  role: z.enum(PROJECT_ROLES),
  invitedBy: inviterOut,
  createdAt: isoDate,
});
export const toMyInvitationOut = (row: InvitationForUserRow) => myInvitationOutSchema.parse({ ...row, project: { slug: row.slug, name: row.name } });

/** The one answer to an invitation, whoever the email belongs to. */
export const invitationSentMessage = (email: string) => `Invitation sent to ${email}.`;

/** What inviting made: the link's secret for the owner, and the invitation to mail it for (none for a member). */
export type Invited = {
  email: string;
  role: string;
  token: string;
  stored: { id: string; projectId: string; projectName: string; role: string; linkHash: string; linkExpiresAt: Date } | null;
};

/**
 * Invites `email` to the project as `role` (owners), with a new link. An email with a pending
 * invitation already gets a new link to it (the old link stops); a member's gets a link to nothing,
 * stored nowhere, which opens as any dead link does. The caller cannot tell these cases apart: it
 * gets the email and a link back either way.
 */
export async function inviteMember(db: Db, principal: Principal, slug: string, input: unknown): Promise<Invited> {
  const project = await requireProject(db, principal, slug, "owner");
  const { email, role } = inviteSchema.parse(input);
  const user = await findUserByEmail(db, { email });
  const member = user ? await findMember(db, { projectId: project.id, userId: user.id }) : undefined;
  const { token, link } = await newLink();
  if (member) return { email, role, token, stored: null };
  const id = crypto.randomUUID();
  const stored = (about: { id: string; role: string }) => ({ ...about, projectId: project.id, projectName: project.name, linkHash: link.linkHash, linkExpiresAt: link.linkExpiresAt });
  if (await insertInvitation(db, { id, projectId: project.id, email, role, invitedBy: principal.userId, ...link })) {
    await recordAudit(db, principal.userId, { action: "add", subject: "invitation", subjectId: id, label: email, projectId: project.id, detail: `as ${role}` });
    return { email, role, token, stored: stored({ id, role }) };
  }
  // Invited again: the new role and inviter stand (an owner correcting a role), with a new link.
  const waiting = await replaceLink(db, { projectId: project.id, match: { email }, again: { role, invitedBy: principal.userId }, ...link });
  if (!waiting) return { email, role, token, stored: null };
  await recordAudit(db, principal.userId, { action: "edit", subject: "invitation", subjectId: waiting.id, label: email, projectId: project.id, detail: `invited again as ${role}` });
  return { email, role: waiting.role, token, stored: stored(waiting) };
}

/** The project's pending invitations (owners: they name people's emails), each saying whether its link still works. */
export async function listProjectInvitations(db: Db, principal: Principal, slug: string): Promise<(ProjectInvitationRow & { linkLive: boolean })[]> {
  const project = await requireProject(db, principal, slug, "owner");
  const now = Date.now();
  return (await listPendingForProject(db, { projectId: project.id })).map((row) => ({ ...row, linkLive: (row.linkExpiresAt?.getTime() ?? 0) > now }));
}

/** An owner withdraws a pending invitation; 404 when it is not pending (accepted, declined, or another project's). */
export async function revokeInvitation(db: Db, principal: Principal, slug: string, input: unknown): Promise<void> {
  const project = await requireProject(db, principal, slug, "owner");
  const { id } = invitationIdSchema.parse(input);
  const revoked = await decideInvitation(db, { id, projectId: project.id, status: "revoked" });
  if (!revoked) throw new ApiError("not_found", `No pending invitation with that id in "${slug}".`);
  await recordAudit(db, principal.userId, { action: "delete", subject: "invitation", subjectId: id, label: revoked.email, projectId: project.id, detail: `was ${revoked.role}` });
}

/** The invitations waiting for the signed-in user's answer, matched by their account's email. */
export async function listMyInvitations(db: Db, principal: Principal): Promise<InvitationForUserRow[]> {
  return listPendingForEmail(db, { email: await emailOf(db, principal) });
}

/** The invitee says yes: they become a member with the invited role. Returns the project joined. */
export async function acceptInvitation(db: Db, principal: Principal, slug: string): Promise<{ slug: string; name: string; role: string }> {
  const invitation = await myInvitation(db, principal, slug);
  await db.transaction(async (tx) => {
    const accepted = await decideInvitation(tx, { id: invitation.id, projectId: invitation.projectId, status: "accepted" });
    if (!accepted) throw noInvitation(slug);
    // Someone who became a member meanwhile (an owner invited them twice, say) keeps the role they have.
    await insertMember(tx, { projectId: invitation.projectId, userId: principal.userId, role: accepted.role });
    await recordAudit(tx, principal.userId, { action: "accept", subject: "invitation", subjectId: invitation.id, label: accepted.email, projectId: invitation.projectId, detail: `as ${accepted.role}` });
  });
  return { slug: invitation.slug, name: invitation.name, role: invitation.role };
}

/** The invitee says no: nothing of theirs ever reaches the project. */
export async function declineInvitation(db: Db, principal: Principal, slug: string): Promise<void> {
  const invitation = await myInvitation(db, principal, slug);
  const declined = await decideInvitation(db, { id: invitation.id, projectId: invitation.projectId, status: "declined" });
  if (!declined) throw noInvitation(slug);
  await recordAudit(db, principal.userId, { action: "reject", subject: "invitation", subjectId: invitation.id, label: declined.email, projectId: invitation.projectId, detail: `was ${invitation.role}` });
}

/**
 * The caller's pending invitation to `slug`. A token limited to some projects answers for those alone,
 * so it cannot join others (as it cannot create others).
 */
async function myInvitation(db: Db, principal: Principal, slug: string): Promise<InvitationForUserRow> {
  if (principal.projectIds) throw new ApiError("forbidden", "This token is limited to some projects and cannot answer invitations to others.");
  const [invitation] = await listPendingForEmail(db, { email: await emailOf(db, principal), slug });
  if (!invitation) throw noInvitation(slug);
  return invitation;
}

const noInvitation = (slug: string) => new ApiError("not_found", `No pending invitation to "${slug}".`);

async function emailOf(db: DbOrTx, principal: Principal): Promise<string> {
  const user = await getUser(db, { userId: principal.userId });
  if (!user) throw new ApiError("unauthorized", "This account no longer exists.");
  return user.email.toLowerCase();
}
