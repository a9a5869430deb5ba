import { count, sql } from "drizzle-orm";
import { LEARNING_KINDS, type LearningKind } from "../../rules";
import type { DbOrTx } from "../client";
import { learningCounts } from "../schema";
import { learningsFts } from "./fts-tables";

/** In how many learnings (of everyone's) each word occurs, through the full-text index (so stemmed alike). */
export async function documentFrequencies(db: DbOrTx, params: { terms: string[] }): Promise<Map<string, number>> {
  const counts = await Promise.all(
    params.terms.map((t) => db.select({ n: count() }).from(learningsFts).where(sql`learnings_fts MATCH ${`"${t}"`}`)),
  );
  return new Map(params.terms.map((t, i) => [t, counts[i]![0]?.n ?? 0]));
}

/** Every learning in the store, everyone's: the sum of the counts kept at write time. */
export async function countAllLearnings(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: sql<number>`coalesce(sum(${learningCounts.n}), 0)` }).from(learningCounts);
  return row?.n ?? 0;
}

/** Rows of learning_counts summed by kind, every kind present (a kind with none reads 0 rather than missing). */
export function byKind(rows: { kind: LearningKind; n: number }[]): Record<LearningKind, number> {
  const counts = Object.fromEntries(LEARNING_KINDS.map((kind) => [kind, 0])) as Record<LearningKind, number>;
  for (const row of rows) if (row.kind in counts) counts[row.kind] += row.n;
  return counts;
}
