import { and, asc, desc, eq, lt, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../client";
import type { AgentName, EvidenceLine, LessonKind } from "../../rules";
import { projects, proposals, type LearningKind, type ProposalStatus } from "../schema";
import type { NewLearnedItem } from "./learnings";
import { listScope, ownedBy, personalOf, visibleTo, type Owner, type Visibility } from "./scope";

export type ProposalRow = {
  id: string;
  userId: string;
  kind: LearningKind;
  content: string;
  source: string;
  confidence: number;
  status: ProposalStatus;
  mergedCount: number;
  method: string | null;
  lesson: LessonKind | null;
  evidence: EvidenceLine[] | null;
  externalId: string | null;
  extra: Record<string, unknown> | null;
  learningId: string | null;
  /** The coding agent and model that proposed it, when the client said. */
  agent: AgentName | null;
  model: string | null;
  project: string | null;
  projectId: string | null;
  decidedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

export type ProposalScope = Visibility;

/** The columns of a ProposalRow, for every query that returns one. */
export const proposalColumns = {
  id: proposals.id,
  userId: proposals.userId,
  kind: proposals.kind,
  content: proposals.content,
  source: proposals.source,
  confidence: proposals.confidence,
  status: proposals.status,
  mergedCount: proposals.mergedCount,
  method: proposals.method,
  lesson: proposals.lesson,
  evidence: proposals.evidence,
  externalId: proposals.externalId,
  extra: proposals.extra,
  learningId: proposals.learningId,
  agent: proposals.agent,
  model: proposals.model,
  project: projects.slug,
  projectId: proposals.projectId,
  decidedAt: proposals.decidedAt,
  createdAt: proposals.createdAt,
  updatedAt: proposals.updatedAt,
};

/** Proposals with their project's slug; the caller adds the scope. */
export function selectProposals(db: DbOrTx) {
  return db.select(proposalColumns).from(proposals).leftJoin(projects, eq(projects.id, proposals.projectId));
}

export async function listProposalRows(
  db: DbOrTx,
  params: ProposalScope & { status?: ProposalStatus; projectId?: string; limit: number; before?: [number, string] },
): Promise<ProposalRow[]> {
  const conditions: (SQL | undefined)[] = [listScope(proposals, params), params.status ? eq(proposals.status, params.status) : undefined];
  if (params.before) {
    const at = new Date(params.before[0]);
    conditions.push(or(lt(proposals.createdAt, at), and(eq(proposals.createdAt, at), lt(proposals.id, params.before[1]))));
  }
  return selectProposals(db)
    .where(and(...conditions))
    .orderBy(desc(proposals.createdAt), desc(proposals.id))
    .limit(params.limit);
}

export async function findProposal(db: DbOrTx, params: ProposalScope & { id: string }): Promise<ProposalRow | undefined> {
  const [row] = await selectProposals(db).where(and(eq(proposals.id, params.id), visibleTo(proposals, params)));
  return row;
}

/** Pending proposals of one scope, newest first: the candidates a new proposal may merge into. */
export async function listPendingInScope(db: DbOrTx, params: Owner & { limit: number }): Promise<ProposalRow[]> {
  return selectProposals(db)
    .where(and(ownedBy(proposals, params), eq(proposals.status, "pending")))
    .orderBy(desc(proposals.createdAt))
    .limit(params.limit);
}

export type NewProposalRow = NewLearnedItem & {
  confidence: number;
  status?: ProposalStatus;
  method?: string | null;
  lesson?: LessonKind | null;
  evidence?: EvidenceLine[] | null;
  externalId?: string | null;
  extra?: Record<string, unknown> | null;
  agent?: AgentName | null;
  model?: string | null;
  createdAt?: Date;
  decidedAt?: Date | null;
};

function values(row: NewProposalRow) {
  return { ...row, updatedAt: row.createdAt ?? new Date() };
}

export async function insertProposal(db: DbOrTx, row: NewProposalRow): Promise<void> {
  await db.insert(proposals).values(values(row));
}

/**
 * Inserts one batch of imported proposals in one statement; those whose external id the user already
 * has are skipped. Returns how many were new. The caller keeps the batch small, as for learnings.
 */
export async function insertProposalsIfNew(db: DbOrTx, rows: NewProposalRow[]): Promise<number> {
  if (!rows.length) return 0;
  const added = await db.insert(proposals).values(rows.map(values)).onConflictDoNothing().returning({ id: proposals.id });
  return added.length;
}

/**
 * Merges a near-duplicate sighting into a pending proposal: its confidence raised, the sighting counted,
 * and its lesson and evidence as the caller combined them. False when the proposal is no longer
 * pending (decided meanwhile): nothing was merged.
 */
export async function mergeIntoProposal(
  db: DbOrTx,
  params: Owner & { id: string; confidence: number; lesson: LessonKind | null; evidence: EvidenceLine[] | null },
): Promise<boolean> {
  const merged = await db
    .update(proposals)
    .set({ confidence: params.confidence, lesson: params.lesson, evidence: params.evidence, mergedCount: sql`${proposals.mergedCount} + 1`, updatedAt: new Date() })
    .where(and(eq(proposals.id, params.id), ownedBy(proposals, params), eq(proposals.status, "pending")))
    .returning({ id: proposals.id });
  return merged.length > 0;
}

/** Decides a pending proposal in the caller's scope; false when it is not pending (decided meanwhile). */
export async function decideProposal(
  db: DbOrTx,
  params: ProposalScope & { id: string; status: "accepted" | "rejected"; learningId: string | null; content?: string },
): Promise<boolean> {
  const now = new Date();
  const updated = await db
    .update(proposals)
    .set({ status: params.status, learningId: params.learningId, decidedAt: now, updatedAt: now, ...(params.content ? { content: params.content } : {}) })
    .where(and(eq(proposals.id, params.id), eq(proposals.status, "pending"), visibleTo(proposals, params)))
    .returning({ id: proposals.id });
  return updated.length > 0;
}

export async function listPersonalProposals(db: DbOrTx, params: { userId: string }): Promise<ProposalRow[]> {
  return selectProposals(db)
    .where(personalOf(proposals, params.userId))
    // Insertion order, so an export lists an imported file's proposals in the file's order.
    .orderBy(asc(sql`${proposals}.rowid`));
}
