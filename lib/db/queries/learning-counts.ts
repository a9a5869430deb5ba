import { count, sql, type SQL } from "drizzle-orm";
import { LEARNING_KINDS, type LearningKind } from "../../rules";
import type { DbOrTx } from "../client";
import { learnings } from "../schema";
import { learningsFts } from "./fts-tables";
import { ofProject, personalOf, type Owner } from "./scope";

/** In how many learnings (of everyone's) each word occurs, through the full-text index (so stemmed alike). */
export async function documentFrequencies(db: DbOrTx, params: { terms: string[] }): Promise<Map<string, number>> {
  const counts = await Promise.all(
    params.terms.map((t) => db.select({ n: count() }).from(learningsFts).where(sql`learnings_fts MATCH ${`"${t}"`}`)),
  );
  return new Map(params.terms.map((t, i) => [t, counts[i]![0]?.n ?? 0]));
}

export async function countAllLearnings(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(learnings);
  return row?.n ?? 0;
}

/**
 * What a context draws on (the user's personal learnings and the project's), counted by kind. Counted
 * per scope, each along its (owner, kind) index: an OR of the two would scan the table.
 */
export async function countContextLearnings(db: DbOrTx, params: Owner): Promise<Record<LearningKind, number>> {
  const byKind = (where: SQL) => db.select({ kind: learnings.kind, n: count() }).from(learnings).where(where).groupBy(learnings.kind);
  const scopes = await Promise.all([
    byKind(personalOf(learnings, params.userId)),
    params.projectId ? byKind(ofProject(learnings, params.projectId)) : Promise.resolve([]),
  ]);
  // Every kind present, so a kind with no learnings reads 0 rather than missing.
  const counts = Object.fromEntries(LEARNING_KINDS.map((kind) => [kind, 0])) as Record<LearningKind, number>;
  for (const row of scopes.flat()) counts[row.kind] += row.n;
  return counts;
}
