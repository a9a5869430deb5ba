import { and, count, desc, eq, isNull, or } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { activeTasks, contextLog, handoffs, projectMatchers, projectMembers, projects, proposals, sessionDocs, taskMemories } from "../schema";

// Reads for GET /api/context: one function per section's data, each scoped to the user or the project.

export async function latestHandoffFor(db: DbOrTx, params: { projectId: string; branch: string | null }) {
  const columns = { markdown: handoffs.markdown, branch: handoffs.branch, author: handoffs.author, createdAt: handoffs.createdAt };
  if (params.branch) {
    const [onBranch] = await db
      .select(columns)
      .from(handoffs)
      .where(and(eq(handoffs.projectId, params.projectId), eq(handoffs.branch, params.branch)))
      .orderBy(desc(handoffs.createdAt))
      .limit(1);
    if (onBranch) return { ...onBranch, matchedBranch: true };
  }
  const [latest] = await db.select(columns).from(handoffs).where(eq(handoffs.projectId, params.projectId)).orderBy(desc(handoffs.createdAt)).limit(1);
  return latest ? { ...latest, matchedBranch: false } : undefined;
}

export async function activeTaskIdFor(db: DbOrTx, params: { userId: string; projectId: string }): Promise<string | undefined> {
  const [row] = await db
    .select({ taskId: activeTasks.taskId })
    .from(activeTasks)
    .where(and(eq(activeTasks.userId, params.userId), eq(activeTasks.projectId, params.projectId)));
  return row?.taskId;
}

export async function taskMemoryFor(db: DbOrTx, params: { projectId: string; taskId: string }) {
  const [row] = await db
    .select({ taskId: taskMemories.taskId, markdown: taskMemories.markdown, updatedAt: taskMemories.updatedAt })
    .from(taskMemories)
    .where(and(eq(taskMemories.projectId, params.projectId), eq(taskMemories.taskId, params.taskId)));
  return row;
}

export async function countQueuedSessions(db: DbOrTx, params: { projectId: string }): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(sessionDocs)
    .where(and(eq(sessionDocs.projectId, params.projectId), eq(sessionDocs.status, "todo")));
  return row?.n ?? 0;
}

/** Pending proposals a context lists: the user's personal ones and the project's. */
export async function pendingProposalsFor(db: DbOrTx, params: { userId: string; projectId: string | null; limit: number }) {
  const personal = and(isNull(proposals.projectId), eq(proposals.userId, params.userId));
  const scope = and(eq(proposals.status, "pending"), params.projectId ? or(personal, eq(proposals.projectId, params.projectId)) : personal);
  const [items, [total]] = await Promise.all([
    db
      .select({ id: proposals.id, kind: proposals.kind, content: proposals.content, confidence: proposals.confidence })
      .from(proposals)
      .where(scope)
      .orderBy(desc(proposals.createdAt), desc(proposals.id))
      .limit(params.limit),
    db.select({ n: count() }).from(proposals).where(scope),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** Every matcher of the user's projects; lib/context/match-project.ts picks the one that fits. */
export async function matchersForUser(db: DbOrTx, params: { userId: string }) {
  return db
    .select({ slug: projects.slug, kind: projectMatchers.kind, pattern: projectMatchers.pattern })
    .from(projectMatchers)
    .innerJoin(projects, eq(projects.id, projectMatchers.projectId))
    .innerJoin(projectMembers, and(eq(projectMembers.projectId, projects.id), eq(projectMembers.userId, params.userId)));
}

export async function logContextServed(
  db: DbOrTx,
  row: { userId: string; projectId: string | null; tokenId: string | null; source: string | null; budget: number; tokenEstimate: number; learningsShown: number },
): Promise<void> {
  await db.insert(contextLog).values(row);
}
