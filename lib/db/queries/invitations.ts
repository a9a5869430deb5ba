import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { projectInvitations, projects, users, type InvitationStatus, type ProjectRole } from "../schema";
import { ofProject } from "./scope";

/** Who invited, as the invitee and the project's owners see it (null once that account is gone). */
export type Inviter = { name: string; email: string } | null;
/** A pending invitation of a project, as its owners see it. */
export type ProjectInvitationRow = { id: string; email: string; role: ProjectRole; createdAt: Date; invitedBy: Inviter };
/** A pending invitation addressed to a user, as they see it. */
export type InvitationForUserRow = { id: string; projectId: string; slug: string; name: string; role: ProjectRole; createdAt: Date; invitedBy: Inviter };

const pending = eq(projectInvitations.status, "pending");

const inviterColumns = { inviterName: users.name, inviterEmail: users.email };
const toInviter = (row: { inviterName: string | null; inviterEmail: string | null }): Inviter =>
  row.inviterName === null || row.inviterEmail === null ? null : { name: row.inviterName, email: row.inviterEmail };

/**
 * A pending invitation; false when one for this email and project waits already (the partial unique
 * index decides, so two owners inviting at once store one).
 */
export async function insertInvitation(
  db: DbOrTx,
  params: { id: string; projectId: string; email: string; role: ProjectRole; invitedBy: string },
): Promise<boolean> {
  const inserted = await db.insert(projectInvitations).values(params).onConflictDoNothing().returning({ id: projectInvitations.id });
  return inserted.length === 1;
}

export async function listPendingForProject(db: DbOrTx, params: { projectId: string }): Promise<ProjectInvitationRow[]> {
  const rows = await db
    .select({ id: projectInvitations.id, email: projectInvitations.email, role: projectInvitations.role, createdAt: projectInvitations.createdAt, ...inviterColumns })
    .from(projectInvitations)
    .leftJoin(users, eq(users.id, projectInvitations.invitedBy))
    .where(and(ofProject(projectInvitations, params.projectId), pending))
    .orderBy(asc(projectInvitations.createdAt), asc(projectInvitations.email));
  return rows.map(({ inviterName, inviterEmail, ...row }) => ({ ...row, invitedBy: toInviter({ inviterName, inviterEmail }) }));
}

/** The pending invitations to an email (lowercase), optionally only the one to the project `slug`. */
export async function listPendingForEmail(db: DbOrTx, params: { email: string; slug?: string }): Promise<InvitationForUserRow[]> {
  const conditions = [eq(projectInvitations.email, params.email), pending];
  if (params.slug !== undefined) conditions.push(eq(projects.slug, params.slug));
  const rows = await db
    .select({
      id: projectInvitations.id,
      projectId: projects.id,
      slug: projects.slug,
      name: projects.name,
      role: projectInvitations.role,
      createdAt: projectInvitations.createdAt,
      ...inviterColumns,
    })
    .from(projectInvitations)
    .innerJoin(projects, eq(projects.id, projectInvitations.projectId))
    .leftJoin(users, eq(users.id, projectInvitations.invitedBy))
    .where(and(...conditions))
    .orderBy(asc(projectInvitations.createdAt), asc(projects.slug));
  return rows.map(({ inviterName, inviterEmail, ...row }) => ({ ...row, invitedBy: toInviter({ inviterName, inviterEmail }) }));
}

/**
 * Settles a pending invitation of a project as accepted, declined or revoked; the email it was sent to,
 * or undefined when there is no such pending invitation (decided already, by someone else at the same
 * moment too: only one decision wins).
 */
export async function decideInvitation(
  db: DbOrTx,
  params: { id: string; projectId: string; status: Exclude<InvitationStatus, "pending"> },
): Promise<{ email: string; role: ProjectRole } | undefined> {
  const [row] = await db
    .update(projectInvitations)
    .set({ status: params.status, decidedAt: new Date() })
    .where(and(eq(projectInvitations.id, params.id), ofProject(projectInvitations, params.projectId), pending))
    .returning({ email: projectInvitations.email, role: projectInvitations.role });
  return row;
}
