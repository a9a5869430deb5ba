import type { DbOrTx } from "../db/client";
import { latestHandoffFor } from "../db/queries/context";
import { findSessionHandoff } from "../db/queries/handoffs";
import type { ContextData } from "./context-types";
import type { ContextQuery } from "./context-query";

/**
 * The handoff a context shows. After a compaction, the session's own checkpoint (the handoff its
 * PreCompact hook posted under its id) says what it was in the middle of; otherwise, and when it has
 * none, the latest handoff of the branch (or of the project).
 */
export async function contextHandoff(db: DbOrTx, projectId: string, q: Pick<ContextQuery, "branch" | "source" | "sessionId">): Promise<ContextData["handoff"] | undefined> {
  if (q.source === "compact" && q.sessionId) {
    const own = await findSessionHandoff(db, { projectId, sessionId: q.sessionId });
    if (own) return { markdown: own.markdown, branch: own.branch, author: own.author, createdAt: own.createdAt, matchedBranch: own.branch === (q.branch ?? null), checkpoint: true };
  }
  return latestHandoffFor(db, { projectId, branch: q.branch ?? null });
}
