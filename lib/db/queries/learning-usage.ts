import { and, count, desc, eq, inArray, isNull, max, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../client";
import type { FlagReason, TouchHow } from "../../rules";
import { learnings, learningUsage } from "../schema";
import { visibleTo, type Visibility } from "./scope";

// Used or not, and flags (issue 27): what a session's end reports about the learnings it was given
// and those of its project that name files. The verdicts are decided on the developer's machine.

/** The files a learning names and its flag, as every LearningRow carries them (learnings.ts). */
export const flagColumns = {
  files: learnings.files,
  flaggedAt: learnings.flaggedAt,
  flagReason: learnings.flagReason,
  flagFile: learnings.flagFile,
  flagSessionId: learnings.flagSessionId,
};

/** A learning as the session-end worker checks it: its text (given ones only) and the files it names. */
export type CheckedLearning = { id: string; content: string; files: string[] };

/** The learnings of these ids the scope may see (a deleted one is simply not there). */
export async function learningsByIds(db: DbOrTx, params: Visibility & { ids: string[] }): Promise<(CheckedLearning & { projectId: string | null })[]> {
  if (!params.ids.length) return [];
  return db
    .select({ id: learnings.id, content: learnings.content, files: learnings.files, projectId: learnings.projectId })
    .from(learnings)
    .where(and(inArray(learnings.id, params.ids), visibleTo(learnings, params)));
}

/** A project's learnings that name files and are not flagged yet, newest first (along learnings_named_files_idx). */
export async function namedFileLearnings(db: DbOrTx, params: { projectId: string; limit: number }): Promise<{ id: string; files: string[] }[]> {
  return db
    .select({ id: learnings.id, files: learnings.files })
    .from(learnings)
    .where(and(eq(learnings.projectId, params.projectId), ne(learnings.files, sql`'[]'`), isNull(learnings.flaggedAt)))
    .orderBy(desc(learnings.createdAt))
    .limit(params.limit);
}

export type Verdict = { id: string; touched: boolean; how: TouchHow | null };

/** Records one session's verdicts; a verdict already recorded for that learning and session stays as it was. Returns how many were new. */
export async function recordVerdicts(db: DbOrTx, params: { userId: string; sessionId: string; verdicts: Verdict[]; at: Date }): Promise<number> {
  if (!params.verdicts.length) return 0;
  const rows = params.verdicts.map((v) => ({ learningId: v.id, userId: params.userId, sessionId: params.sessionId, touched: v.touched, how: v.touched ? v.how : null, reportedAt: params.at }));
  const added = await db.insert(learningUsage).values(rows).onConflictDoNothing().returning({ id: learningUsage.learningId });
  return added.length;
}

export type Flag = { id: string; reason: FlagReason; file: string };

/** Flags learnings not flagged yet (the first reason stands until an edit clears it); returns the ids flagged. */
export async function flagLearnings(db: DbOrTx, params: { sessionId: string; flags: Flag[]; at: Date }): Promise<string[]> {
  const flagged: string[] = [];
  for (const f of params.flags) {
    const done = await db
      .update(learnings)
      .set({ flaggedAt: params.at, flagReason: f.reason, flagFile: f.file, flagSessionId: params.sessionId })
      .where(and(eq(learnings.id, f.id), isNull(learnings.flaggedAt)))
      .returning({ id: learnings.id });
    flagged.push(...done.map((d) => d.id));
  }
  return flagged;
}

/** Per learning: in how many reported sessions it was given, in how many touched, and when last touched. */
export type Usage = { given: number; touched: number; lastTouchedAt: Date | null };

/** The usage of these learnings (a page of them), by id; a learning never reported is absent. */
export async function usageOf(db: DbOrTx, ids: string[]): Promise<Map<string, Usage>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({
      id: learningUsage.learningId,
      given: count(),
      touched: sql<number>`sum(${learningUsage.touched})`,
      lastTouchedAt: max(sql<number | null>`case when ${learningUsage.touched} then ${learningUsage.reportedAt} end`),
    })
    .from(learningUsage)
    .where(inArray(learningUsage.learningId, ids))
    .groupBy(learningUsage.learningId);
  return new Map(rows.map((r) => [r.id, { given: r.given, touched: Number(r.touched ?? 0), lastTouchedAt: r.lastTouchedAt == null ? null : new Date(Number(r.lastTouchedAt)) }]));
}
