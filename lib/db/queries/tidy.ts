import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { keptPairs, learnings, projects } from "../schema";
import { learningsFts } from "./fts-tables";
import { learningColumns, newerLearning, newerOf, toLearningRow, type LearningRow } from "./learnings";
import { ofProject } from "./scope";

// What the tidy-up queue (lib/learnings/tidy.ts) reads: a project's current learnings; the stale and
// flagged lists leave out those a person kept lately, the pairs leave out pairs kept lately. Each list
// is one bounded index read (see the indexes on learnings).

type QueueRead = { projectId: string; /** Kept at or after this: still kept. */ keptSince: Date; limit: number };

function current(projectId: string): SQL {
  return and(ofProject(learnings, projectId), isNull(learnings.supersededAt))!;
}

function currentNotKept(params: QueueRead): SQL {
  return and(current(params.projectId), or(isNull(learnings.keptAt), lt(learnings.keptAt, params.keptSince)))!;
}

function selectRows(db: DbOrTx) {
  return db.select(learningColumns).from(learnings).leftJoin(projects, eq(projects.id, learnings.projectId)).leftJoin(newerLearning, newerOf);
}

const lastUse = sql`coalesce(${learnings.lastInjectedAt}, ${learnings.createdAt})`;

/** Not injected since `before` (never injected: created before it), longest unused first (learnings_stale_idx). */
export async function listStaleLearnings(db: DbOrTx, params: QueueRead & { before: Date }): Promise<LearningRow[]> {
  const rows = await selectRows(db)
    .where(and(currentNotKept(params), sql`${lastUse} < ${params.before.getTime()}`))
    .orderBy(asc(lastUse))
    .limit(params.limit);
  return rows.map(toLearningRow);
}

/** Flagged by the session-end worker, oldest flag first (learnings_flagged_idx). */
export async function listFlaggedLearnings(db: DbOrTx, params: QueueRead): Promise<LearningRow[]> {
  const rows = await selectRows(db)
    .where(and(currentNotKept(params), isNotNull(learnings.flaggedAt)))
    .orderBy(asc(learnings.flaggedAt))
    .limit(params.limit);
  return rows.map(toLearningRow);
}

/** The newest current learnings: what the queue compares with the rest for duplicates and contradictions. */
export async function listNewestLearnings(db: DbOrTx, params: { projectId: string; limit: number }): Promise<LearningRow[]> {
  const rows = await selectRows(db).where(current(params.projectId)).orderBy(desc(learnings.createdAt), desc(learnings.seq)).limit(params.limit);
  return rows.map(toLearningRow);
}

/**
 * A project's current learnings among the newest `window` (of the whole store) that match an FTS5
 * expression, text only: the window bounds the search's cost however large the store (BM25 would rank
 * every match), and the caller judges the pairs itself.
 */
export async function windowMatches(db: DbOrTx, params: { projectId: string; match: string; window: number }): Promise<{ id: string; content: string }[]> {
  const newest = db.$with("newest").as(
    db
      .select({ seq: learningsFts.rowid })
      .from(learningsFts)
      .where(sql`learnings_fts MATCH ${params.match}`)
      .orderBy(desc(learningsFts.rowid))
      .limit(params.window),
  );
  return db
    .with(newest)
    .select({ id: learnings.id, content: learnings.content })
    .from(newest)
    .innerJoin(learnings, eq(learnings.seq, newest.seq))
    .where(and(ofProject(learnings, params.projectId), isNull(learnings.supersededAt)));
}

/** Learnings of one project by id, as the queue shows them. */
export async function listLearningsByIds(db: DbOrTx, params: { projectId: string; ids: string[] }): Promise<LearningRow[]> {
  if (!params.ids.length) return [];
  const rows = await selectRows(db).where(and(inArray(learnings.id, params.ids), ofProject(learnings, params.projectId)));
  return rows.map(toLearningRow);
}

/** A pair's key, whichever way round it is given: its row's (a_id < b_id). */
export const pairKey = (x: string, y: string): [string, string] => (x < y ? [x, y] : [y, x]);

/** Which of these pairs (pairKey order) a person kept at or after `since`, as "a b" keys. */
export async function keptPairsAmong(db: DbOrTx, params: { pairs: [string, string][]; since: Date }): Promise<Set<string>> {
  if (!params.pairs.length) return new Set();
  const rows = await db
    .select({ a: keptPairs.aId, b: keptPairs.bId })
    .from(keptPairs)
    .where(and(sql`(${keptPairs.aId}, ${keptPairs.bId}) in (select value ->> 0, value ->> 1 from json_each(${JSON.stringify(params.pairs)}))`, gte(keptPairs.keptAt, params.since)));
  return new Set(rows.map((r) => `${r.a} ${r.b}`));
}

/** Marks learnings of one project kept now (out of the stale and flagged lists); returns the ids it marked. */
export async function keepLearnings(db: DbOrTx, params: { projectId: string; ids: string[]; at: Date }): Promise<string[]> {
  if (!params.ids.length) return [];
  const kept = await db
    .update(learnings)
    .set({ keptAt: params.at })
    .where(and(inArray(learnings.id, params.ids), ofProject(learnings, params.projectId)))
    .returning({ id: learnings.id });
  return kept.map((k) => k.id);
}

/** Keeps a pair now (kept again: the time moves). The caller checked both are the project's. */
export async function keepPair(db: DbOrTx, params: { pair: [string, string]; at: Date }): Promise<void> {
  const [aId, bId] = pairKey(...params.pair);
  await db.insert(keptPairs).values({ aId, bId, keptAt: params.at }).onConflictDoUpdate({ target: [keptPairs.aId, keptPairs.bId], set: { keptAt: params.at } });
}
