import type { DbOrTx } from "../client";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { projectInvitations, projectMembers, projects, users, type InvitationStatus, type ProjectRole } from "../schema";
import type { InvitationMailState } from "../../rules";
import { ofProject } from "./scope";

/** Who invited, as the invitee and the project's owners see it (null once that account is gone). */
export type Inviter = { name: string; email: string } | null;
/** A pending invitation of a project, as its owners see it (its link's hash never leaves this file). */
export type ProjectInvitationRow = {
  id: string;
  email: string;
  role: ProjectRole;
  createdAt: Date;
  invitedBy: Inviter;
  linkExpiresAt: Date | null;
  mailState: InvitationMailState | null;
};
/** A new link: the hash of its secret and when it stops working. */
export type LinkParams = { linkHash: string; linkExpiresAt: Date; mailState: InvitationMailState | null };
/** The pending invitation a live link opens, as the person holding the link sees it. */
export type InvitationByLinkRow = InvitationForUserRow & { email: string };
/** A pending invitation addressed to a user, as they see it. */
export type InvitationForUserRow = { id: string; projectId: string; slug: string; name: string; role: ProjectRole; createdAt: Date; invitedBy: Inviter };

const pending = eq(projectInvitations.status, "pending");
/**
 * An invitation stands on its inviter's authority: it opens, lists and can be accepted only while the
 * person who sent it is still an owner of the project with an active account. Removed, demoted, left
 * or disabled, their pending invitations are closed (closeInvitationsFrom); this check also covers an
 * account deleted or changed outside those paths — a removed owner cannot come back through a second address.
 */
const inviterIsOwner = sql`exists (select 1 from ${projectMembers} join ${users} on ${users.id} = ${projectMembers.userId}
  where ${projectMembers.projectId} = ${projectInvitations.projectId} and ${projectMembers.userId} = ${projectInvitations.invitedBy}
  and ${projectMembers.role} = 'owner' and ${users.disabledAt} is null)`;
const live = and(pending, inviterIsOwner)!;

const inviterColumns = { inviterName: users.name, inviterEmail: users.email };
const toInviter = (row: { inviterName: string | null; inviterEmail: string | null }): Inviter =>
  row.inviterName === null || row.inviterEmail === null ? null : { name: row.inviterName, email: row.inviterEmail };

/**
 * A pending invitation; false when one for this email and project waits already (the partial unique
 * index decides, so two owners inviting at once store one).
 */
export async function insertInvitation(
  db: DbOrTx,
  params: { id: string; projectId: string; email: string; role: ProjectRole; invitedBy: string } & LinkParams,
): Promise<boolean> {
  const inserted = await db.insert(projectInvitations).values(params).onConflictDoNothing().returning({ id: projectInvitations.id });
  return inserted.length === 1;
}

export async function listPendingForProject(db: DbOrTx, params: { projectId: string }): Promise<ProjectInvitationRow[]> {
  const rows = await db
    .select({
      id: projectInvitations.id,
      email: projectInvitations.email,
      role: projectInvitations.role,
      createdAt: projectInvitations.createdAt,
      linkExpiresAt: projectInvitations.linkExpiresAt,
      mailState: projectInvitations.mailState,
      ...inviterColumns,
    })
    .from(projectInvitations)
    .leftJoin(users, eq(users.id, projectInvitations.invitedBy))
    .where(and(ofProject(projectInvitations, params.projectId), live))
    .orderBy(asc(projectInvitations.createdAt), asc(projectInvitations.email));
  return rows.map(({ inviterName, inviterEmail, ...row }) => ({ ...row, invitedBy: toInviter({ inviterName, inviterEmail }) }));
}

const forInvitee = {
  id: projectInvitations.id,
  projectId: projects.id,
  slug: projects.slug,
  name: projects.name,
  role: projectInvitations.role,
  createdAt: projectInvitations.createdAt,
  ...inviterColumns,
};

/** The pending invitations to an email (lowercase), optionally only the one to the project `slug`. */
export async function listPendingForEmail(db: DbOrTx, params: { email: string; slug?: string }): Promise<InvitationForUserRow[]> {
  const conditions = [eq(projectInvitations.email, params.email), live];
  if (params.slug !== undefined) conditions.push(eq(projects.slug, params.slug));
  const rows = await db
    .select(forInvitee)
    .from(projectInvitations)
    .innerJoin(projects, eq(projects.id, projectInvitations.projectId))
    .leftJoin(users, eq(users.id, projectInvitations.invitedBy))
    .where(and(...conditions))
    .orderBy(asc(projectInvitations.createdAt), asc(projects.slug));
  return rows.map(({ inviterName, inviterEmail, ...row }) => ({ ...row, invitedBy: toInviter({ inviterName, inviterEmail }) }));
}

/**
 * The pending invitation whose live link has this hash: the secret is the owner here (the person
 * holding it), so the hash, pending and unexpired all sit in the WHERE.
 */
export async function findByLink(db: DbOrTx, params: { linkHash: string; now: Date }): Promise<InvitationByLinkRow | undefined> {
  const [row] = await db
    .select({ ...forInvitee, email: projectInvitations.email })
    .from(projectInvitations)
    .innerJoin(projects, eq(projects.id, projectInvitations.projectId))
    .leftJoin(users, eq(users.id, projectInvitations.invitedBy))
    .where(and(eq(projectInvitations.linkHash, params.linkHash), live, gt(projectInvitations.linkExpiresAt, params.now)));
  if (!row) return undefined;
  const { inviterName, inviterEmail, ...rest } = row;
  return { ...rest, invitedBy: toInviter({ inviterName, inviterEmail }) };
}

/**
 * Gives a project's pending invitation (by id, or by the email it was sent to) a new link; the old one
 * stops at once. An invitation sent again (`again`) also takes the role and the inviter of the new one.
 * The invitation as it now stands, or undefined when no such one is pending.
 */
export async function replaceLink(
  db: DbOrTx,
  params: { projectId: string; match: { id: string } | { email: string }; again?: { role?: ProjectRole; invitedBy: string } } & LinkParams,
): Promise<{ id: string; email: string; role: ProjectRole } | undefined> {
  const { projectId, match, again, ...link } = params;
  const which = "id" in match ? eq(projectInvitations.id, match.id) : eq(projectInvitations.email, match.email);
  const [row] = await db
    .update(projectInvitations)
    .set({ ...link, ...again })
    .where(and(which, ofProject(projectInvitations, projectId), pending))
    .returning({ id: projectInvitations.id, email: projectInvitations.email, role: projectInvitations.role });
  return row;
}

/** Records how the mail of an invitation's link went, unless a newer link (another mail) replaced it meanwhile. */
export async function setMailState(db: DbOrTx, params: { id: string; projectId: string; linkHash: string; mailState: InvitationMailState }): Promise<void> {
  await db
    .update(projectInvitations)
    .set({ mailState: params.mailState })
    .where(and(eq(projectInvitations.id, params.id), ofProject(projectInvitations, params.projectId), eq(projectInvitations.linkHash, params.linkHash)));
}

/**
 * Settles a pending invitation of a project as accepted, declined or revoked; the email it was sent to,
 * or undefined when there is no such pending invitation (decided already, by someone else at the same
 * moment too: only one decision wins). Accepted only while its inviter is still an owner (`live`).
 */
export async function decideInvitation(
  db: DbOrTx,
  params: { id: string; projectId: string; status: Exclude<InvitationStatus, "pending"> },
): Promise<{ email: string; role: ProjectRole } | undefined> {
  const [row] = await db
    .update(projectInvitations)
    .set({ status: params.status, decidedAt: new Date() })
    .where(and(eq(projectInvitations.id, params.id), ofProject(projectInvitations, params.projectId), params.status === "accepted" ? live : pending))
    .returning({ email: projectInvitations.email, role: projectInvitations.role });
  return row;
}

/**
 * Closes the pending invitations `userId` sent (in one project, or in every one): they stood on an
 * owner's authority that is gone (demoted, removed, left, disabled), and made owner again later, the
 * person does not bring them back; an owner who wants them invites again. How many were closed.
 */
export async function closeInvitationsFrom(db: DbOrTx, params: { userId: string; projectId?: string }): Promise<number> {
  const conditions = [pending, eq(projectInvitations.invitedBy, params.userId)];
  if (params.projectId) conditions.push(eq(projectInvitations.projectId, params.projectId));
  const closed = await db
    .update(projectInvitations)
    .set({ status: "revoked", decidedAt: new Date() })
    .where(and(...conditions))
    .returning({ id: projectInvitations.id });
  return closed.length;
}
