import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../client";
import type { AgentName } from "../../rules";
import { handoffs } from "../schema";
import { ofProject } from "./scope";

export type HandoffRecord = {
  id: string;
  markdown: string;
  sessionId: string | null;
  branch: string | null;
  author: string;
  signedAs: string | null;
  /** The coding agent and model that produced it, when the client said. */
  agent: AgentName | null;
  model: string | null;
  createdAt: Date;
};

const handoffColumns = {
  id: handoffs.id,
  markdown: handoffs.markdown,
  sessionId: handoffs.sessionId,
  branch: handoffs.branch,
  author: handoffs.author,
  signedAs: handoffs.signedAs,
  agent: handoffs.agent,
  model: handoffs.model,
  createdAt: handoffs.createdAt,
};

/** A handoff to store: the record, its project and the user who writes it. */
export type HandoffWrite = HandoffRecord & { projectId: string; userId: string };

export type UpsertHandoffResult = { outcome: "created" | "replaced"; handoff: HandoffRecord } | { outcome: "taken" };

/**
 * Inserts a handoff, or replaces the one with the same session id in the project. One statement
 * decides (the unique index handoffs_session_idx), so two Stop hooks of one session racing cannot
 * leave two rows. Only the user who wrote a session's handoff may replace it ("taken" otherwise).
 * The replacement takes the new time: it is the newest word on that session.
 */
export async function upsertHandoff(db: DbOrTx, params: HandoffWrite): Promise<UpsertHandoffResult> {
  const values = {
    id: params.id,
    projectId: params.projectId,
    userId: params.userId,
    markdown: params.markdown,
    sessionId: params.sessionId,
    branch: params.branch,
    author: params.author,
    signedAs: params.signedAs,
    agent: params.agent,
    model: params.model,
    createdAt: params.createdAt,
  };
  if (params.sessionId === null) {
    const [row] = await db.insert(handoffs).values(values).returning(handoffColumns);
    return { outcome: "created", handoff: row! };
  }
  const [row] = await db
    .insert(handoffs)
    .values(values)
    .onConflictDoUpdate({
      target: [handoffs.projectId, handoffs.sessionId],
      // A copy written before the stored one (sent late from a spool) changes nothing: the session's
      // newest handoff stays, with its time.
      set: Object.fromEntries(
        (["markdown", "branch", "author", "signedAs", "agent", "model", "createdAt"] as const).map((key) => {
          const column = handoffs[key];
          return [key, sql`case when excluded.created_at >= ${handoffs.createdAt} then excluded.${sql.identifier(column.name)} else ${column} end`];
        }),
      ),
      setWhere: sql`${handoffs.userId} = excluded.user_id`,
    })
    .returning(handoffColumns);
  if (!row) return { outcome: "taken" };
  // The conflicting row keeps its own id, so a different id means an existing handoff was replaced.
  return { outcome: row.id === params.id ? "created" : "replaced", handoff: row };
}

/** A page of a project's handoffs, newest first; `after` is the sort key of the previous page's last item. */
export async function listHandoffs(
  db: DbOrTx,
  params: { projectId: string; branch?: string; limit: number; after?: { createdAt: Date; id: string } },
): Promise<HandoffRecord[]> {
  const conditions = [ofProject(handoffs, params.projectId)];
  if (params.branch !== undefined) conditions.push(eq(handoffs.branch, params.branch));
  if (params.after) {
    const { createdAt, id } = params.after;
    conditions.push(or(lt(handoffs.createdAt, createdAt), and(eq(handoffs.createdAt, createdAt), lt(handoffs.id, id)))!);
  }
  return db
    .select(handoffColumns)
    .from(handoffs)
    .where(and(...conditions))
    .orderBy(desc(handoffs.createdAt), desc(handoffs.id))
    .limit(params.limit);
}

/** The newest handoff of a project, on one branch when `branch` is given. */
export async function findLatestHandoff(db: DbOrTx, params: { projectId: string; branch?: string }): Promise<HandoffRecord | undefined> {
  const [row] = await listHandoffs(db, { projectId: params.projectId, branch: params.branch, limit: 1 });
  return row;
}
