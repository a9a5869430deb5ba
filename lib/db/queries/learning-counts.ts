import { and, count, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { LEARNING_KINDS, type LearningKind } from "../../rules";
import type { Db, DbOrTx } from "../client";
import { read } from "./batch-reads";
import { learningCounts, learnings } from "../schema";
import { readableBy, readableCounts, type Reader } from "./scope";

/**
 * Counting stops past a cap where only "more than that" matters: `least`, or `share` of the store if
 * more (a word in more learnings than the cap is left out of a search, or comes after rarer ones).
 */
export type CountCap = { share: number; least: number };

/**
 * In how many learnings (of everyone's) each word occurs, through the full-text index (so stemmed
 * alike): one statement however many words. With a cap, a count stops at the cap + 1. Only for choosing
 * which words a proposal's twin search and the tidy-up probe with, whose answers stay in one scope; a
 * context counts what its reader may read (scopedWordCountsRead).
 */
function wordCountsQuery(db: DbOrTx, params: { terms: string[]; cap?: CountCap }) {
  const cap = params.cap
    ? sql`(select cast(max(${params.cap.least}, coalesce(sum(${learningCounts.n}), 0) * ${params.cap.share}) as integer) + 1 from ${learningCounts})`
    : sql`-1`;
  return db.all<{ term: string; n: number }>(sql`select value as term, (select count(*) from (
      select 1 from learnings_fts where learnings_fts match '"' || value || '"' limit ${cap})) as n
    from json_each(${JSON.stringify(params.terms)})`);
}

/**
 * Where a reader's search statistics come from: the learnings they may read (readableBy) and a context's
 * project's (`projectId`, theirs), and the rows of learning_counts that count those.
 */
export function readerStatistics(reader: Reader, projectId: string | null): { visible: SQL; counted: SQL } {
  return {
    visible: or(readableBy(learnings, reader), projectId ? eq(learnings.projectId, projectId) : undefined)!,
    counted: or(readableCounts(learningCounts.owner, reader), projectId ? eq(learningCounts.owner, `project:${projectId}`) : undefined)!,
  };
}

/** FTS5's matches joined to their learnings in that order (CROSS JOIN: FTS5 drives), for a condition on the learning. */
export const matching = (match: SQL) => sql`learnings_fts cross join ${learnings} on ${learnings.seq} = learnings_fts.rowid where learnings_fts match ${match}`;

const frequencyMap = (rows: { term: string; n: number }[]) => new Map(rows.map((r) => [r.term, Number(r.n)]));

/**
 * In how many learnings a reader may read (their personal ones and those of the projects they are a
 * member of: readableBy) each word occurs, and how many learnings that is (learning_counts' count: what
 * choosing words weighs the counts against), in one statement; a count stops at the cap + 1. Nobody
 * else's learnings count.
 */
export function scopedWordCountsRead(db: Db, params: { terms: string[]; cap: CountCap; reader: Reader }) {
  const { visible, counted } = readerStatistics(params.reader, null);
  const size = sql`(select coalesce(sum(${learningCounts.n}), 0) from ${learningCounts} where ${counted})`;
  const cap = sql`cast(max(${params.cap.least}, ${size} * ${params.cap.share}) as integer) + 1`;
  const query = db.all<{ term: string | null; n: number }>(sql`select value as term, (select count(*) from (
      select 1 from ${matching(sql`'"' || value || '"'`)} and ${visible} limit ${cap})) as n
    from json_each(${JSON.stringify(params.terms)})
    union all select null, ${size}`);
  return read(query, (rows) => ({ counts: frequencyMap(rows.filter((r): r is { term: string; n: number } => r.term !== null)), size: Number(rows.find((r) => r.term === null)?.n ?? 0) }));
}

/** wordCountsQuery on its own. */
export async function storeWordCounts(db: DbOrTx, params: { terms: string[]; cap?: CountCap }): Promise<Map<string, number>> {
  return frequencyMap(await wordCountsQuery(db, params));
}

/** Rows of learning_counts summed by kind, every kind present (a kind with none reads 0 rather than missing). */
export function byKind(rows: { kind: LearningKind; n: number }[]): Record<LearningKind, number> {
  const counts = Object.fromEntries(LEARNING_KINDS.map((kind) => [kind, 0])) as Record<LearningKind, number>;
  for (const row of rows) if (row.kind in counts) counts[row.kind] += row.n;
  return counts;
}

/** How many learnings a user has written, personal and in projects: what the per-user cap counts. */
export async function countUserLearnings(db: DbOrTx, params: { userId: string }): Promise<number> {
  const [row] = await db.select({ n: count() }).from(learnings).where(eq(learnings.userId, params.userId));
  return row?.n ?? 0;
}

/** How many of these external ids (a batch's worth) the user's learnings already carry. */
export async function countKnownLearningIds(db: DbOrTx, params: { userId: string; externalIds: string[] }): Promise<number> {
  if (!params.externalIds.length) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(learnings)
    .where(and(eq(learnings.userId, params.userId), inArray(learnings.externalId, params.externalIds)));
  return row?.n ?? 0;
}
