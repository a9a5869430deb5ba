import type { z } from "zod";
import { producedByLabel } from "../agents/produced-by";
import { ApiError } from "../api/errors";
import { recordAudit } from "../audit/record-audit";
import type { Principal } from "../auth/principal";
import type { Db, DbOrTx } from "../db/client";
import { findLearning, insertLearning, type LearningRow } from "../db/queries/learnings";
import { findLearningCandidates } from "../db/queries/learning-search";
import {
  decideProposal,
  findProposal,
  insertProposal,
  listPendingInScope,
  listProposalRows,
  mergeIntoProposal,
  type ProposalRow,
} from "../db/queries/proposals";
import { ftsQuery } from "../learnings/fts-query";
import { cursorPart, decodeCursor } from "../pagination/cursor";
import { fetchPage, type Page } from "../pagination/fetch-page";
import { projectIdsFor, requireProject } from "../projects/projects";
import { resolveSessionProject } from "../context/project/choose-project";
import { LESSON_LABELS, MAX_EVIDENCE_CHARS, NOT_A_SESSION, type EvidenceLine, type LessonKind } from "../rules";
import { cut } from "../text/cut";
import { parseWithheld } from "../secrets/withhold-secrets";
import { combineConfidence, isNearDuplicate } from "./near-duplicate";
import { acceptSchema, newProposalSchema, proposalQuerySchema, reviewSchema } from "./proposal-schemas";
import { learningFiles } from "../learnings/named-files";
import { supersedeFor } from "./supersede";

/**
 * Evidence lines are excerpts of a session: one that grew past MAX_EVIDENCE_CHARS as its secrets were
 * withheld (a CLI of another version may withhold less at home) is cut back, not refused with its proposal.
 */
const fitEvidence = <T extends { evidence?: EvidenceLine[] | null }>(data: T): T => (data.evidence ? { ...data, evidence: data.evidence.map((e) => ({ ...e, text: cut(e.text, MAX_EVIDENCE_CHARS) })) } : data);

export type ProposeResult =
  | { merged: false; proposal: ProposalRow }
  | { merged: "proposal"; proposal: ProposalRow }
  | { merged: "learning"; learning: LearningRow };

/**
 * Stores a learning candidate, unless it is a near-duplicate (see near-duplicate.ts) of a learning or
 * a pending proposal in the same scope (the same project, or the proposer's personal ones): then the
 * existing pending proposal takes the sighting (mergedSighting: its text stays, its confidence rises,
 * the sighting's lesson and evidence fill what it lacks), or, for a learning, nothing new is stored.
 */
export async function propose(db: Db, principal: Principal, input: unknown): Promise<ProposeResult> {
  const data = parseWithheld(newProposalSchema, input, fitEvidence);
  const slug = data.project ?? (data.project === undefined && data.session ? (await resolveSessionProject(db, principal, data.session))?.slug : null);
  const projectId = slug ? (await requireProject(db, principal, slug, "write")).id : null;
  const scope = { userId: principal.userId, projectId };

  const match = ftsQuery(data.content);
  if (match) {
    const learnings = await findLearningCandidates(db, { ...scope, match, limit: 20 });
    const same = learnings.find((l) => isNearDuplicate(l.content, data.content));
    if (same) return { merged: "learning", learning: same };
  }
  const pending = await listPendingInScope(db, { ...scope, limit: 500 });
  const twin = pending.find((p) => isNearDuplicate(p.content, data.content));
  const readScope = { userId: principal.userId, projectIds: await projectIdsFor(db, principal, "read") };
  // The same session's sighting again is the one it was, not a second: a hook's request sent twice (the
  // answer lost after the write, a 503 past the database's time limit, then the spool's retry).
  if (twin && twin.source === data.source && !NOT_A_SESSION.has(data.source)) {
    return { merged: "proposal", proposal: (await findProposal(db, { ...readScope, id: twin.id })) ?? twin };
  }
  // A twin decided since it was listed takes no merge: the sighting is stored as a proposal of its own.
  if (twin && (await mergeIntoProposal(db, { id: twin.id, ...scope, ...mergedSighting(twin, data) }))) {
    return { merged: "proposal", proposal: (await findProposal(db, { ...readScope, id: twin.id }))! };
  }
  const id = crypto.randomUUID();
  const producedBy = { agent: data.agent ?? null, model: data.model ?? null };
  const found = { method: data.method ?? null, lesson: data.lesson ?? null, evidence: data.evidence?.length ? data.evidence : null };
  await insertProposal(db, { id, ...scope, kind: data.kind, content: data.content, source: data.source, confidence: data.confidence, ...producedBy, ...found });
  return { merged: false, proposal: (await findProposal(db, { ...readScope, id }))! };
}

/**
 * What a pending proposal becomes when the same lesson is proposed again: its confidence raised, and
 * its lesson kind and evidence kept, or the sighting's when it had none (one proposed through MCP or
 * `baton remember` has no lines; a session's hook later finds them). Evidence lines name turns of one
 * session, so two sessions' lines are never mixed.
 */
function mergedSighting(twin: ProposalRow, sighting: z.output<typeof newProposalSchema>): { confidence: number; lesson: LessonKind | null; evidence: EvidenceLine[] | null } {
  const evidence = twin.evidence?.length ? twin.evidence : sighting.evidence?.length ? sighting.evidence : null;
  return { confidence: combineConfidence(twin.confidence, sighting.confidence), lesson: twin.lesson ?? sighting.lesson ?? null, evidence };
}

export async function listProposals(
  db: Db,
  principal: Principal,
  query: z.input<typeof proposalQuerySchema>,
): Promise<Page<ProposalRow>> {
  const q = proposalQuerySchema.parse(query);
  const projectIds = await projectIdsFor(db, principal, "read");
  const projectId = q.project ? (await requireProject(db, principal, q.project)).id : undefined;
  const before = decodeCursor(q.cursor, [cursorPart.time, cursorPart.id]);
  return fetchPage(
    q.limit,
    (limit) => listProposalRows(db, { userId: principal.userId, projectIds, projectId, status: q.status, limit, before }),
    (last) => [last.createdAt.getTime(), last.id],
  );
}

type Decision = { id: string; action: "accept" | "reject"; content?: string; supersedes?: string[] };
/** `superseded`: the ids of the learnings the accepted one replaced. */
export type DecisionResult = { proposal: ProposalRow; learning: LearningRow | null; superseded: string[] };

/** Applies one decision inside a transaction; throws (rolling the whole transaction back) when it cannot. */
async function decide(tx: DbOrTx, principal: Principal, projectIds: { read: string[]; write: string[] }, d: Decision): Promise<DecisionResult> {
  const readScope = { userId: principal.userId, projectIds: projectIds.read };
  const current = await findProposal(tx, { ...readScope, id: d.id });
  if (!current) throw new ApiError("not_found", `No proposal ${d.id}.`);
  if (current.projectId && !projectIds.write.includes(current.projectId)) {
    throw new ApiError("forbidden", `Your role in "${current.project}" may not review its proposals.`);
  }
  if (current.status !== "pending") throw new ApiError("conflict", `Proposal ${d.id} was already ${current.status}.`);
  const writeScope = { userId: principal.userId, projectIds: projectIds.write };
  let learningId: string | null = null;
  const edited = d.content !== undefined && d.content !== current.content;
  if (d.action === "accept") {
    learningId = crypto.randomUUID();
    const now = new Date();
    await insertLearning(tx, {
      id: learningId,
      userId: current.userId,
      projectId: current.projectId,
      kind: current.kind,
      content: d.content ?? current.content,
      files: learningFiles(d.content ?? current.content, current.evidence),
      source: current.source,
      confirmed: true,
      tags: [],
      origin: "proposal",
      proposalId: current.id,
      agent: current.agent,
      model: current.model,
      acceptedBy: principal.userId,
      acceptedAt: now,
      ...(edited ? { editedBy: principal.userId, editedAt: now } : {}),
    });
  }
  const status = d.action === "accept" ? "accepted" : "rejected";
  // Accepted with an edit, the proposal says what was accepted (an undo reopens it as stored, never with a client's text).
  if (!(await decideProposal(tx, { ...writeScope, id: d.id, status, learningId, content: d.content }))) {
    throw new ApiError("conflict", `Proposal ${d.id} was decided by someone else meanwhile.`);
  }
  const superseded = learningId && d.supersedes?.length ? await supersedeFor(tx, principal.userId, readScope, { proposal: current, learningId, ids: d.supersedes }) : [];
  const by = producedByLabel(current);
  const lessonLabel = current.lesson ? LESSON_LABELS[current.lesson] : null;
  await recordAudit(tx, principal.userId, {
    action: d.action,
    subject: "proposal",
    subjectId: d.id,
    label: d.content ?? current.content,
    projectId: current.projectId,
    ownerUserId: current.userId,
    detail: [lessonLabel && `lesson: ${lessonLabel}`, edited && "edited before accepting", by && `proposed by ${by}`].filter(Boolean).join("; ") || null,
  });
  return {
    proposal: (await findProposal(tx, { ...readScope, id: d.id }))!,
    learning: learningId ? ((await findLearning(tx, { ...readScope, id: learningId })) ?? null) : null,
    superseded,
  };
}

async function scopes(db: Db, principal: Principal) {
  const [read, write] = await Promise.all([projectIdsFor(db, principal, "read"), projectIdsFor(db, principal, "write")]);
  return { read, write };
}

export async function acceptProposal(db: Db, principal: Principal, id: string, input: unknown): Promise<DecisionResult> {
  const { content, supersedes } = parseWithheld(acceptSchema, input ?? {});
  const projectIds = await scopes(db, principal);
  return db.transaction((tx) => decide(tx, principal, projectIds, { id, action: "accept", content, supersedes }));
}

export async function rejectProposal(db: Db, principal: Principal, id: string): Promise<DecisionResult> {
  const projectIds = await scopes(db, principal);
  return db.transaction((tx) => decide(tx, principal, projectIds, { id, action: "reject" }));
}

/** Bulk review: every decision applies, or none does (one transaction). */
export async function reviewProposals(db: Db, principal: Principal, input: unknown): Promise<DecisionResult[]> {
  const decisions = parseWithheld(reviewSchema, input);
  const ids = new Set<string>();
  for (const d of decisions) {
    if (ids.has(d.id)) throw new ApiError("bad_request", `Proposal ${d.id} appears twice in the review.`);
    ids.add(d.id);
  }
  const projectIds = await scopes(db, principal);
  return db.transaction(async (tx) => {
    const results: DecisionResult[] = [];
    for (const d of decisions) results.push(await decide(tx, principal, projectIds, d));
    return results;
  });
}
