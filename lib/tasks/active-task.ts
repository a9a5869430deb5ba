import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { deleteActiveTask, findActiveTask, upsertActiveTask, type ActiveTaskRecord } from "../db/queries/tasks";
import { requireProject } from "../projects/projects";
import { activeTaskBodySchema } from "./task-schemas";

/** The principal's own active task in a project; each member has their own. */
export async function getActiveTask(db: Db, principal: Principal, slug: string): Promise<ActiveTaskRecord | null> {
  const project = await requireProject(db, principal, slug, "read");
  return (await findActiveTask(db, { userId: principal.userId, projectId: project.id })) ?? null;
}

export async function setActiveTask(db: Db, principal: Principal, slug: string, input: unknown): Promise<ActiveTaskRecord> {
  const project = await requireProject(db, principal, slug, "write");
  const { taskId } = activeTaskBodySchema.parse(input);
  return upsertActiveTask(db, { userId: principal.userId, projectId: project.id, taskId, now: new Date() });
}

/** Clearing when nothing is active is not an error: the outcome is the same. */
export async function clearActiveTask(db: Db, principal: Principal, slug: string): Promise<void> {
  const project = await requireProject(db, principal, slug, "write");
  await deleteActiveTask(db, { userId: principal.userId, projectId: project.id });
}
