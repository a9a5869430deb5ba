import { sql } from "drizzle-orm";
import { LEARNING_KINDS, type LearningKind } from "../../rules";
import type { Db, DbOrTx } from "../client";
import { read } from "./batch-reads";
import { learningCounts } from "../schema";

/**
 * Counting stops past a cap where only "more than that" matters: `least`, or `share` of the store if
 * more (a word in more learnings than the cap is left out of a search, or comes after rarer ones).
 */
export type CountCap = { share: number; least: number };

/**
 * In how many learnings (of everyone's) each word occurs, through the full-text index (so stemmed
 * alike): one statement however many words. With a cap, a count stops at the cap + 1.
 */
function wordCountsQuery(db: DbOrTx, params: { terms: string[]; cap?: CountCap }) {
  const cap = params.cap
    ? sql`(select cast(max(${params.cap.least}, coalesce(sum(${learningCounts.n}), 0) * ${params.cap.share}) as integer) + 1 from ${learningCounts})`
    : sql`-1`;
  return db.all<{ term: string; n: number }>(sql`select value as term, (select count(*) from (
      select 1 from learnings_fts where learnings_fts match '"' || value || '"' limit ${cap})) as n
    from json_each(${JSON.stringify(params.terms)})`);
}

const frequencyMap = (rows: { term: string; n: number }[]) => new Map(rows.map((r) => [r.term, Number(r.n)]));

/** wordCountsQuery as one read of a batch. */
export function wordCountsRead(db: Db, params: { terms: string[]; cap?: CountCap }) {
  return read(wordCountsQuery(db, params), frequencyMap);
}

/** wordCountsQuery on its own. */
export async function documentFrequencies(db: DbOrTx, params: { terms: string[]; cap?: CountCap }): Promise<Map<string, number>> {
  return frequencyMap(await wordCountsQuery(db, params));
}

/** Rows of learning_counts summed by kind, every kind present (a kind with none reads 0 rather than missing). */
export function byKind(rows: { kind: LearningKind; n: number }[]): Record<LearningKind, number> {
  const counts = Object.fromEntries(LEARNING_KINDS.map((kind) => [kind, 0])) as Record<LearningKind, number>;
  for (const row of rows) if (row.kind in counts) counts[row.kind] += row.n;
  return counts;
}
