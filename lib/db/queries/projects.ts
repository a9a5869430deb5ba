import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { projectMembers, projects, type ProjectRole } from "../schema";
import { memberOf } from "./scope";

export type MemberProject = { id: string; slug: string; name: string; role: ProjectRole; injectionPaused: boolean; createdAt: Date };

/** A project as a member sees it: with the member's role. */
export const memberProjectColumns = {
  id: projects.id,
  slug: projects.slug,
  name: projects.name,
  role: projectMembers.role,
  injectionPaused: projects.injectionPaused,
  createdAt: projects.createdAt,
};

/** The projects a user is a member of, optionally narrowed to some ids (a project-limited token). */
export async function listProjectsForUser(db: DbOrTx, params: { userId: string; onlyIds?: string[] | null }): Promise<MemberProject[]> {
  const conditions = [eq(projectMembers.userId, params.userId)];
  if (params.onlyIds) conditions.push(inArray(projects.id, params.onlyIds));
  return db
    .select(memberProjectColumns)
    .from(projects)
    .innerJoin(projectMembers, eq(projectMembers.projectId, projects.id))
    .where(and(...conditions))
    .orderBy(asc(projects.slug));
}

/** One project by slug, only when the user is a member of it. */
export async function findProjectForUser(db: DbOrTx, params: { userId: string; slug: string }): Promise<MemberProject | undefined> {
  const [row] = await db
    .select(memberProjectColumns)
    .from(projects)
    .innerJoin(projectMembers, memberOf(projects.id, params.userId))
    .where(eq(projects.slug, params.slug));
  return row;
}

/**
 * Inserts a project with its creator as owner. Returns undefined when the slug is taken: the unique
 * index decides, so two creators racing for one slug cannot both win.
 */
export async function insertProject(
  db: DbOrTx,
  params: { userId: string; id: string; slug: string; name: string },
): Promise<MemberProject | undefined> {
  const [row] = await db
    .insert(projects)
    .values({ id: params.id, slug: params.slug, name: params.name, createdBy: params.userId })
    .onConflictDoNothing({ target: projects.slug })
    .returning({ id: projects.id, slug: projects.slug, name: projects.name, injectionPaused: projects.injectionPaused, createdAt: projects.createdAt });
  if (!row) return undefined;
  await db.insert(projectMembers).values({ projectId: row.id, userId: params.userId, role: "owner" });
  return { ...row, role: "owner" };
}

/** Pauses or resumes context injection in a project. */
export async function setInjectionPaused(db: DbOrTx, params: { projectId: string; paused: boolean }): Promise<void> {
  await db.update(projects).set({ injectionPaused: params.paused }).where(eq(projects.id, params.projectId));
}
