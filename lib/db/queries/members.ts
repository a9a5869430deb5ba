import { and, asc, eq, ne, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { projectMembers, users, type ProjectRole } from "../schema";

export type MemberRow = { userId: string; name: string; email: string; role: ProjectRole; createdAt: Date };

export async function listMembers(db: DbOrTx, params: { projectId: string }): Promise<MemberRow[]> {
  return db
    .select({ userId: projectMembers.userId, name: users.name, email: users.email, role: projectMembers.role, createdAt: projectMembers.createdAt })
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(eq(projectMembers.projectId, params.projectId))
    .orderBy(asc(users.name), asc(users.email));
}

export async function findMember(db: DbOrTx, params: { projectId: string; userId: string }): Promise<{ role: ProjectRole } | undefined> {
  const [row] = await db
    .select({ role: projectMembers.role })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, params.projectId), eq(projectMembers.userId, params.userId)));
  return row;
}

/** Adds a member; false when the user is one already (the primary key decides). */
export async function insertMember(db: DbOrTx, params: { projectId: string; userId: string; role: ProjectRole }): Promise<boolean> {
  const inserted = await db.insert(projectMembers).values(params).onConflictDoNothing().returning({ userId: projectMembers.userId });
  return inserted.length === 1;
}

/**
 * True when the row is not an owner, or the project has another owner. Evaluated inside the UPDATE or
 * DELETE itself, so two owners demoting each other at once cannot leave the project without one.
 */
function keepsAnOwner(projectId: string): SQL {
  return or(
    ne(projectMembers.role, "owner"),
    sql`(select count(*) from project_members as others where others.project_id = ${projectId} and others.role = 'owner') > 1`,
  )!;
}

/** Changes a member's role; false when they are not a member, or it would demote the last owner. */
export async function updateMemberRole(db: DbOrTx, params: { projectId: string; userId: string; role: ProjectRole }): Promise<boolean> {
  const conditions = [eq(projectMembers.projectId, params.projectId), eq(projectMembers.userId, params.userId)];
  if (params.role !== "owner") conditions.push(keepsAnOwner(params.projectId));
  const updated = await db
    .update(projectMembers)
    .set({ role: params.role })
    .where(and(...conditions))
    .returning({ userId: projectMembers.userId });
  return updated.length === 1;
}

/** Removes a member; false when they are not one, or they are the last owner. */
export async function deleteMember(db: DbOrTx, params: { projectId: string; userId: string }): Promise<boolean> {
  const deleted = await db
    .delete(projectMembers)
    .where(and(eq(projectMembers.projectId, params.projectId), eq(projectMembers.userId, params.userId), keepsAnOwner(params.projectId)))
    .returning({ userId: projectMembers.userId });
  return deleted.length === 1;
}
