import { count, sql } from "drizzle-orm";
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

/** Counted per scope, each along its index (an OR of the two would scan the table). */
export async function countContextLearnings(db: DbOrTx, params: Owner): Promise<number> {
  const [[personal], [project]] = await Promise.all([
    db.select({ n: count() }).from(learnings).where(personalOf(learnings, params.userId)),
    params.projectId ? db.select({ n: count() }).from(learnings).where(ofProject(learnings, params.projectId)) : Promise.resolve([{ n: 0 }]),
  ]);
  return (personal?.n ?? 0) + (project?.n ?? 0);
}
