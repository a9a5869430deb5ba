import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { activeTasks, taskMemories, users } from "../schema";
import { ofProject, userInProject } from "./scope";

export type TaskMemoryRecord = { taskId: string; markdown: string; updatedAt: Date };
/** With who wrote it last: their user id and name (null once that account is gone). */
export type AuthoredTaskMemory = TaskMemoryRecord & { updatedByUserId: string | null; updatedByName: string | null };
export type ActiveTaskRecord = { taskId: string; setAt: Date };

const memoryColumns = { taskId: taskMemories.taskId, markdown: taskMemories.markdown, updatedAt: taskMemories.updatedAt };

export async function findTaskMemory(db: DbOrTx, params: { projectId: string; taskId: string }): Promise<AuthoredTaskMemory | undefined> {
  const [row] = await db
    .select({ ...memoryColumns, updatedByUserId: taskMemories.updatedBy, updatedByName: users.name })
    .from(taskMemories)
    .leftJoin(users, eq(users.id, taskMemories.updatedBy))
    .where(and(ofProject(taskMemories, params.projectId), eq(taskMemories.taskId, params.taskId)));
  return row;
}

/** Creates or replaces a task's memory in one statement, so two writers never collide on the key. */
export async function upsertTaskMemory(
  db: DbOrTx,
  params: { projectId: string; taskId: string; markdown: string; userId: string; now: Date },
): Promise<TaskMemoryRecord> {
  const [row] = await db
    .insert(taskMemories)
    .values({
      projectId: params.projectId,
      taskId: params.taskId,
      markdown: params.markdown,
      updatedBy: params.userId,
      createdAt: params.now,
      updatedAt: params.now,
    })
    .onConflictDoUpdate({
      target: [taskMemories.projectId, taskMemories.taskId],
      set: { markdown: sql`excluded.markdown`, updatedBy: sql`excluded.updated_by`, updatedAt: sql`excluded.updated_at` },
    })
    .returning(memoryColumns);
  return row!;
}

export async function findActiveTask(db: DbOrTx, params: { userId: string; projectId: string }): Promise<ActiveTaskRecord | undefined> {
  const [row] = await db
    .select({ taskId: activeTasks.taskId, setAt: activeTasks.setAt })
    .from(activeTasks)
    .where(userInProject(activeTasks, params));
  return row;
}

export async function upsertActiveTask(
  db: DbOrTx,
  params: { userId: string; projectId: string; taskId: string; now: Date },
): Promise<ActiveTaskRecord> {
  const [row] = await db
    .insert(activeTasks)
    .values({ userId: params.userId, projectId: params.projectId, taskId: params.taskId, setAt: params.now })
    .onConflictDoUpdate({
      target: [activeTasks.userId, activeTasks.projectId],
      set: { taskId: sql`excluded.task_id`, setAt: sql`excluded.set_at` },
    })
    .returning({ taskId: activeTasks.taskId, setAt: activeTasks.setAt });
  return row!;
}

export async function deleteActiveTask(db: DbOrTx, params: { userId: string; projectId: string }): Promise<void> {
  await db.delete(activeTasks).where(userInProject(activeTasks, params));
}
