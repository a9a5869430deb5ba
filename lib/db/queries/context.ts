import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import { asBookkeeping } from "../replica-client";
import { PENDING_PROPOSAL_ORDER } from "./proposal-queue";
import { writeSessionServed } from "./session-served";
import { memberOf, ofProject, personalAndProject, userInProject, visibleTo } from "./scope";
import { activeTasks, appMeta, contextLog, learnings, handoffs, projectMatchers, projectMembers, projects, proposals, sessionDocs } from "../schema";

// Reads for GET /api/context: one function per section's data, each scoped to the user or the project.

export async function latestHandoffFor(db: DbOrTx, params: { projectId: string; branch: string | null }) {
  const columns = { markdown: handoffs.markdown, branch: handoffs.branch, author: handoffs.author, createdAt: handoffs.createdAt };
  if (params.branch) {
    const [onBranch] = await db
      .select(columns)
      .from(handoffs)
      .where(and(ofProject(handoffs, params.projectId), eq(handoffs.branch, params.branch)))
      .orderBy(desc(handoffs.createdAt))
      .limit(1);
    if (onBranch) return { ...onBranch, matchedBranch: true };
  }
  const [latest] = await db.select(columns).from(handoffs).where(ofProject(handoffs, params.projectId)).orderBy(desc(handoffs.createdAt)).limit(1);
  return latest ? { ...latest, matchedBranch: false } : undefined;
}

export async function activeTaskIdFor(db: DbOrTx, params: { userId: string; projectId: string }): Promise<string | undefined> {
  const [row] = await db
    .select({ taskId: activeTasks.taskId })
    .from(activeTasks)
    .where(userInProject(activeTasks, params));
  return row?.taskId;
}

export async function countQueuedSessions(db: DbOrTx, params: { projectId: string }): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(sessionDocs)
    .where(and(ofProject(sessionDocs, params.projectId), eq(sessionDocs.status, "todo")));
  return row?.n ?? 0;
}

/** Pending proposals a context lists: the user's personal ones and the project's. */
export async function pendingProposalsFor(db: DbOrTx, params: { userId: string; projectId: string | null; limit: number }) {
  const scope = and(eq(proposals.status, "pending"), visibleTo(proposals, personalAndProject(params)));
  const [items, [total]] = await Promise.all([
    db
      .select({ id: proposals.id, kind: proposals.kind, content: proposals.content, confidence: proposals.confidence })
      .from(proposals)
      .where(scope)
      .orderBy(...PENDING_PROPOSAL_ORDER)
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
    .innerJoin(projectMembers, memberOf(projects.id, params.userId));
}

/** The counter drizzle/0003_context_version.sql's triggers bump on every change a context depends on. */
export async function contextVersion(db: DbOrTx): Promise<string> {
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, "context_version"));
  return row?.value ?? "0";
}

/**
 * Writes a batch of served-context bookkeeping in one transaction: the log rows in one insert, and
 * one last-injected update per user and project however many contexts were served to them, and what
 * each host session (sessionId) was given, for the prompt stage.
 */
export async function recordServedBatch(
  db: Db,
  entries: { userId: string; projectId: string | null; tokenId: string | null; source: string | null; sessionId?: string | null; budget: number; tokenEstimate: number; learningsShown: number; learningIds: string[]; at: Date }[],
): Promise<void> {
  if (!entries.length) return;
  const groups = new Map<string, ServedGroup>();
  for (const e of entries) {
    const key = `${e.userId}\u0000${e.projectId ?? ""}`;
    const group = groups.get(key) ?? { userId: e.userId, projectId: e.projectId, ids: new Set<string>(), at: e.at };
    for (const id of e.learningIds) group.ids.add(id);
    if (e.at > group.at) group.at = e.at;
    groups.set(key, group);
  }
  // Never read into a context: an embedded replica need not sync before its next read.
  await asBookkeeping(() => db.transaction((tx) => writeServed(tx, entries, [...groups.values()])));
}


type ServedGroup = { userId: string; projectId: string | null; ids: Set<string>; at: Date };

async function writeServed(tx: DbOrTx, entries: Parameters<typeof recordServedBatch>[1], groups: ServedGroup[]): Promise<void> {
  for (let i = 0; i < entries.length; i += 200) {
    const rows = entries.slice(i, i + 200).map((e) => ({
      userId: e.userId,
      projectId: e.projectId,
      tokenId: e.tokenId,
      source: e.source,
      budget: e.budget,
      tokenEstimate: e.tokenEstimate,
      learningsShown: e.learningsShown,
      createdAt: e.at,
    }));
    await tx.insert(contextLog).values(rows);
  }
  await writeSessionServed(tx, entries, new Date());
  for (const g of groups) {
    const scope = visibleTo(learnings, personalAndProject(g));
    const ids = [...g.ids];
    // Chunked: SQLite caps the number of bound parameters in one statement.
    for (let i = 0; i < ids.length; i += 500) {
      // updated_at stays: being injected is bookkeeping, not an edit (drizzle would otherwise bump it).
      await tx
        .update(learnings)
        .set({ lastInjectedAt: g.at, updatedAt: sql`${learnings.updatedAt}` })
        .where(and(inArray(learnings.id, ids.slice(i, i + 500)), scope));
    }
  }
}
