import { and, desc, eq, isNull, sql, type Column, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { learnings, type LearningKind } from "../schema";
import { ofProject, personalAndProject, personalOf, visibleTo, type Owner } from "./scope";

/**
 * Candidates for a context: FTS matches of the hints, best BM25 first; or, without hints, the newest
 * of the user's personal learnings and the project's, confirmed first.
 *
 * Both shapes are written to stay fast on a large store. FTS5 ranks inside its own index first (the
 * inner query: only the best FTS_WINDOW matches of everyone's learnings leave it), and the scope is
 * applied to those; "newest" reads the two scopes separately, each along its (owner, created_at) index.
 */
const FTS_WINDOW = 2000;

/** How much a hint word found in a learning's tags counts against one found in its content (BM25 column weights). */
export const DEFAULT_TAG_WEIGHT = 0.5;

/** What a context needs of a learning, and no more: it reads hundreds of these per request. */
export type LearningCandidateRow = {
  id: string;
  seq: number;
  kind: LearningKind;
  content: string;
  confirmed: boolean;
  createdAt: Date;
  /** Space-separated, as stored. */
  tags: string;
  score?: number;
};

const candidateColumns = {
  id: learnings.id,
  seq: learnings.seq,
  kind: learnings.kind,
  content: learnings.content,
  confirmed: learnings.confirmed,
  createdAt: learnings.createdAt,
  tags: learnings.tags,
};

/**
 * What may be ranked into a context: never a superseded learning, and not a pinned one (pinned ones
 * are read by pinnedLearnings and always shown first).
 */
export function rankable(table: { pinned: Column; supersededAt: Column }): SQL {
  return and(eq(table.pinned, false), isNull(table.supersededAt))!;
}

/** The pinned learnings a context always shows: the user's personal ones and the project's, newest first. */
export async function pinnedLearnings(db: DbOrTx, params: Owner): Promise<LearningCandidateRow[]> {
  return db
    .select(candidateColumns)
    .from(learnings)
    .where(and(eq(learnings.pinned, true), isNull(learnings.supersededAt), visibleTo(learnings, personalAndProject(params))))
    .orderBy(desc(learnings.createdAt), desc(learnings.seq));
}

export async function contextLearnings(
  db: DbOrTx,
  params: Owner & { match: string | null; limit: number; tagWeight?: number },
): Promise<LearningCandidateRow[]> {
  if (params.match) {
    // bm25() spelled out rather than FTS5's configured `rank`: measured faster (99 ms vs 166 ms at 78k matches).
    const best = sql`(SELECT rowid, bm25(learnings_fts, 1.0, ${params.tagWeight ?? DEFAULT_TAG_WEIGHT}) AS score FROM learnings_fts WHERE learnings_fts MATCH ${params.match} ORDER BY score LIMIT ${FTS_WINDOW}) AS best`;
    return db
      .select({ ...candidateColumns, score: sql<number>`best.score` })
      .from(best)
      .innerJoin(learnings, sql`${learnings.seq} = best.rowid`)
      .where(and(visibleTo(learnings, personalAndProject(params)), rankable(learnings)))
      .orderBy(sql`best.score`, desc(learnings.createdAt))
      .limit(params.limit);
  }
  const newest = (where: SQL) =>
    db.select(candidateColumns).from(learnings).where(and(where, rankable(learnings))).orderBy(desc(learnings.createdAt), desc(learnings.seq)).limit(params.limit);
  const [personal, project] = await Promise.all([
    newest(personalOf(learnings, params.userId)),
    params.projectId ? newest(ofProject(learnings, params.projectId)) : Promise.resolve([]),
  ]);
  return [...personal, ...project]
    .sort((a, b) => Number(b.confirmed) - Number(a.confirmed) || b.createdAt.getTime() - a.createdAt.getTime() || b.seq - a.seq)
    .slice(0, params.limit);
}
