import { and, count, gte, sql, sum } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { contextLog, projectMembers } from "../schema";
import { memberOf, ofProject } from "./scope";

export type ServedDay = { day: string; contexts: number; tokens: number };

/**
 * Contexts served for one project per UTC day since a time: how many, and how many tokens in all.
 * Only for a member of the project (the join on project_members), so a wrong id reads nothing.
 */
export async function contextServedByDay(db: DbOrTx, params: { userId: string; projectId: string; since: Date }): Promise<ServedDay[]> {
  const day = sql<string>`strftime('%Y-%m-%d', ${contextLog.createdAt} / 1000, 'unixepoch')`;
  const rows = await db
    .select({ day, contexts: count(), tokens: sum(contextLog.tokenEstimate) })
    .from(contextLog)
    .innerJoin(projectMembers, memberOf(contextLog.projectId, params.userId))
    .where(and(ofProject(contextLog, params.projectId), gte(contextLog.createdAt, params.since)))
    .groupBy(day)
    .orderBy(day);
  return rows.map((r) => ({ day: r.day, contexts: r.contexts, tokens: Number(r.tokens ?? 0) }));
}
