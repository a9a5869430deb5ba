import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { learnings, projects } from "../schema";
import { learningsFts } from "./fts-tables";
import { filterLearnings, learningColumns, newerLearning, newerOf, selectLearnings, toLearningRow, type LearningFilter, type LearningRow } from "./learnings";
import { ownedBy, type Owner } from "./scope";

/** Learnings matching an FTS5 expression within a condition, best BM25 first (content weighs twice the tags). */
async function ftsSelect(db: DbOrTx, match: string, where: SQL | undefined, limit: number, offset = 0): Promise<LearningRow[]> {
  const score = sql<number>`bm25(learnings_fts, 1.0, 0.5)`;
  const rows = await db
    .select({ ...learningColumns, score })
    .from(learningsFts)
    .innerJoin(learnings, eq(learnings.seq, learningsFts.rowid))
    .leftJoin(projects, eq(projects.id, learnings.projectId))
    .leftJoin(newerLearning, newerOf)
    .where(and(sql`learnings_fts MATCH ${match}`, where))
    .orderBy(asc(score), desc(learnings.createdAt), desc(learnings.seq))
    .limit(limit)
    .offset(offset);
  return rows.map(toLearningRow);
}

/** The learnings of these seqs that the filter's scope holds, in no order (a page of a search ranked in memory). */
export async function learningsBySeq(db: DbOrTx, seqs: number[], filter: LearningFilter): Promise<LearningRow[]> {
  if (!seqs.length) return [];
  const rows = await selectLearnings(db).where(and(inArray(learnings.seq, seqs), filterLearnings(filter)));
  return rows.map(toLearningRow);
}

/** Full-text search ranked by BM25; `score` is BM25's (lower is better). */
export function searchLearnings(db: DbOrTx, params: LearningFilter & { match: string; offset: number }): Promise<LearningRow[]> {
  return ftsSelect(db, params.match, filterLearnings(params), params.limit, params.offset);
}

/**
 * Learnings in one scope (a project, or the user's personal ones) that share words with a text and
 * are still current (not superseded): a proposal's twin, or what it may supersede.
 */
export function findLearningCandidates(db: DbOrTx, params: Owner & { match: string; limit: number }): Promise<LearningRow[]> {
  // One scope only (a project's, or the personal one): a proposal's twin lives where it would.
  return ftsSelect(db, params.match, and(ownedBy(learnings, params), isNull(learnings.supersededAt)), params.limit);
}
