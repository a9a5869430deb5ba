import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { projectMatchers, type MatcherKind } from "../schema";
import { ofProject } from "./scope";

export type MatcherRow = { id: string; kind: MatcherKind; pattern: string; createdAt: Date };

export async function listMatchers(db: DbOrTx, params: { projectId: string }): Promise<MatcherRow[]> {
  return db
    .select({ id: projectMatchers.id, kind: projectMatchers.kind, pattern: projectMatchers.pattern, createdAt: projectMatchers.createdAt })
    .from(projectMatchers)
    .where(ofProject(projectMatchers, params.projectId))
    .orderBy(asc(projectMatchers.kind), asc(projectMatchers.pattern));
}

/** Adds a matcher; false when the project has the same one already (the unique index decides). */
export async function insertMatcher(db: DbOrTx, params: { id: string; projectId: string; kind: MatcherKind; pattern: string }): Promise<boolean> {
  const inserted = await db.insert(projectMatchers).values(params).onConflictDoNothing().returning({ id: projectMatchers.id });
  return inserted.length === 1;
}

export async function deleteMatcher(db: DbOrTx, params: { projectId: string; id: string }): Promise<boolean> {
  const deleted = await db
    .delete(projectMatchers)
    .where(and(ofProject(projectMatchers, params.projectId), eq(projectMatchers.id, params.id)))
    .returning({ id: projectMatchers.id });
  return deleted.length === 1;
}
