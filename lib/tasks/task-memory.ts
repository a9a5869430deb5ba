import { ApiError } from "../api/errors";
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { findTaskMemory, upsertTaskMemory, type AuthoredTaskMemory, type TaskMemoryRecord } from "../db/queries/tasks";
import { getUser } from "../db/queries/users";
import { requireProject } from "../projects/projects";
import { parseWithheld } from "../secrets/withhold-secrets";
import { taskIdSchema, taskMemoryBodySchema } from "./task-schemas";

/**
 * `updatedBy`: the name of who wrote it last; `updatedByYou`: the caller did. The CLI imports a memory
 * into CLAUDE.local.md (read as instructions) only while the caller wrote it; anyone else's is quoted.
 */
export type ProjectTaskMemory = TaskMemoryRecord & { project: string; updatedBy: string | null; updatedByYou: boolean };

function authored(memory: AuthoredTaskMemory, principal: Principal, project: string): ProjectTaskMemory {
  const { updatedByUserId, updatedByName, ...rest } = memory;
  return { ...rest, project, updatedBy: updatedByName, updatedByYou: updatedByUserId === principal.userId };
}

export async function getTaskMemory(db: Db, principal: Principal, slug: string, taskId: string): Promise<ProjectTaskMemory> {
  const project = await requireProject(db, principal, slug, "read");
  const id = taskIdSchema.parse(taskId);
  const memory = await findTaskMemory(db, { projectId: project.id, taskId: id });
  if (!memory) throw new ApiError("not_found", `No memory for task "${id}" in "${slug}" yet.`, undefined, { reason: "no_task_memory" });
  return authored(memory, principal, project.slug);
}

/** Creates or replaces a task's memory; the task needs no other record first. */
export async function putTaskMemory(db: Db, principal: Principal, slug: string, taskId: string, input: unknown): Promise<ProjectTaskMemory> {
  const project = await requireProject(db, principal, slug, "write");
  const id = taskIdSchema.parse(taskId);
  const { markdown } = parseWithheld(taskMemoryBodySchema, input);
  const memory = await upsertTaskMemory(db, { projectId: project.id, taskId: id, markdown, userId: principal.userId, now: new Date() });
  const user = await getUser(db, { userId: principal.userId });
  return { ...memory, project: project.slug, updatedBy: user?.name ?? null, updatedByYou: true };
}
