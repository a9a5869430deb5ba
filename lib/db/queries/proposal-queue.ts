import { and, asc, count, desc, eq, gt, lt, or, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { proposals, type ProposalStatus } from "../schema";
import { selectProposals, type ProposalRow } from "./proposals";
import { ofProject, personalOf, visibleTo, type Visibility } from "./scope";

// The dashboard's review queue: pending proposals in a chosen order, keyset-paginated so a page stays
// as fast with thousands pending as with ten, and deciding items does not shift the next page.

export const queueSorts = ["confidence", "newest", "oldest"] as const;
export type QueueSort = (typeof queueSorts)[number];
/** The sort key of a page's last row: [confidence, created_at ms, id]. */
export type QueueKey = [number, number, string];

/** `projectIds`: projects the user may read; their proposals are visible alongside the user's personal ones. */
export type QueueFilter = Visibility & {
  /** One project's proposals, or "personal" for the user's own; undefined: everything visible. */
  only?: { projectId: string } | "personal";
};

function scope(filter: QueueFilter): SQL {
  if (filter.only === "personal") return personalOf(proposals, filter.userId);
  if (filter.only) {
    // Only when the caller may read it: a project id outside projectIds matches nothing.
    return filter.projectIds.includes(filter.only.projectId) ? ofProject(proposals, filter.only.projectId) : eq(proposals.id, "");
  }
  return visibleTo(proposals, filter);
}

function afterKey(sort: QueueSort, [confidence, createdMs, id]: QueueKey): SQL {
  const at = new Date(createdMs);
  if (sort === "oldest") return or(gt(proposals.createdAt, at), and(eq(proposals.createdAt, at), gt(proposals.id, id)))!;
  const older = or(lt(proposals.createdAt, at), and(eq(proposals.createdAt, at), lt(proposals.id, id)))!;
  if (sort === "newest") return older;
  return or(lt(proposals.confidence, confidence), and(eq(proposals.confidence, confidence), older))!;
}

const orders = {
  confidence: [desc(proposals.confidence), desc(proposals.createdAt), desc(proposals.id)],
  newest: [desc(proposals.createdAt), desc(proposals.id)],
  oldest: [asc(proposals.createdAt), asc(proposals.id)],
} satisfies Record<QueueSort, SQL[]>;

/**
 * The one order of pending proposals wherever no other is asked for: the review queue's default, the
 * project overview, and the list in every served context. Most confident first, because that is
 * what a reviewer (or an agent mentioning them) should see first when only a few are shown.
 */
export const DEFAULT_QUEUE_SORT: QueueSort = "confidence";
export const PENDING_PROPOSAL_ORDER: readonly SQL[] = orders[DEFAULT_QUEUE_SORT];

export async function listQueue(
  db: DbOrTx,
  params: QueueFilter & { sort: QueueSort; limit: number; after?: QueueKey },
): Promise<ProposalRow[]> {
  const conditions = [scope(params), eq(proposals.status, "pending")];
  if (params.after) conditions.push(afterKey(params.sort, params.after));
  return selectProposals(db)
    .where(and(...conditions))
    .orderBy(...orders[params.sort])
    .limit(params.limit);
}

export async function countQueue(db: DbOrTx, params: QueueFilter): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(proposals)
    .where(and(scope(params), eq(proposals.status, "pending")));
  return row?.n ?? 0;
}

/**
 * Puts a decided proposal back in the queue (an undo), its text as stored. Only
 * while it still has the status the caller saw, so an undo cannot reopen someone else's later decision.
 */
export async function reopenProposal(
  db: DbOrTx,
  params: Visibility & { id: string; from: Exclude<ProposalStatus, "pending"> },
): Promise<boolean> {
  const now = new Date();
  const reopened = await db
    .update(proposals)
    .set({ status: "pending", learningId: null, decidedAt: null, updatedAt: now })
    .where(and(eq(proposals.id, params.id), eq(proposals.status, params.from), visibleTo(proposals, params)))
    .returning({ id: proposals.id });
  return reopened.length > 0;
}
