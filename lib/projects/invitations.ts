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
  listPendingForEmail,
  listPendingForProject,
  type InvitationForUserRow,
  type ProjectInvitationRow,
} from "../db/queries/invitations";
import { findMember, insertMember } from "../db/queries/members";
import { findUserByEmail, getUser } from "../db/queries/users";
import { PROJECT_ROLES } from "../rules";
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
export const projectInvitationOutSchema = z.object({ id: z.string(), email: z.string(), role: z.enum(PROJECT_ROLES), invitedBy: inviterOut, createdAt: isoDate });
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

/**
 * Invites `email` to the project as `role` (owners). Nothing is stored when the email is a member's or
 * has a pending invitation already, and the caller cannot tell: it gets the email back either way.
 */
export async function inviteMember(db: Db, principal: Principal, slug: string, input: unknown): Promise<{ email: string; role: string }> {
  const project = await requireProject(db, principal, slug, "owner");
  const { email, role } = inviteSchema.parse(input);
  const user = await findUserByEmail(db, { email });
  const member = user ? await findMember(db, { projectId: project.id, userId: user.id }) : undefined;
  const id = crypto.randomUUID();
  if (!member && (await insertInvitation(db, { id, projectId: project.id, email, role, invitedBy: principal.userId }))) {
    await recordAudit(db, principal.userId, { action: "add", subject: "invitation", subjectId: id, label: email, projectId: project.id, detail: `as ${role}` });
  }
  return { email, role };
}

/** The project's pending invitations (owners: they name people's emails). */
export async function listProjectInvitations(db: Db, principal: Principal, slug: string): Promise<ProjectInvitationRow[]> {
  const project = await requireProject(db, principal, slug, "owner");
  return listPendingForProject(db, { projectId: project.id });
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
