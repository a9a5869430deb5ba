import { count } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { sessionDocs, type SessionStatus } from "../schema";
import { ofProject } from "./scope";

/** How many of a project's session documents are in each state. */
export async function countSessionsByStatus(db: DbOrTx, params: { projectId: string }): Promise<Record<SessionStatus, number>> {
  const rows = await db
    .select({ status: sessionDocs.status, n: count() })
    .from(sessionDocs)
    .where(ofProject(sessionDocs, params.projectId))
    .groupBy(sessionDocs.status);
  const counts: Record<SessionStatus, number> = { todo: 0, doing: 0, done: 0 };
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}
