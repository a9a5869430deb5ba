import { z } from "zod";
import { ApiError } from "../api/errors";
import { recordAudit } from "../audit/record-audit";
import type { Principal } from "../auth/principal";
import type { DbOrTx, Db } from "../db/client";
import { latestActorOf } from "../db/queries/audit";
import { deleteLearning, findLearning, unsupersedeBy } from "../db/queries/learnings";
import { reopenProposal } from "../db/queries/proposal-queue";
import { findProposal, type ProposalRow } from "../db/queries/proposals";
import { projectIdsFor } from "../projects/projects";
import { changedSinceAccept } from "./changed-since-accept";

/** An undo is for a decision just made on the review page, not a way to reopen old history. */
export const UNDO_WINDOW_MS = 24 * 60 * 60 * 1000;

export const undoSchema = z
  .array(
    z.strictObject({
      id: z.string().min(1).max(100),
      /**
       * Ignored: the review page sends the text the proposal had before an edit-then-accept; an undo
       * reopens the proposal with its text as stored (what was accepted), never a client's text.
       */
      content: z.unknown().optional(),
    }),
  )
  .min(1)
  .max(500);

type Scopes = { read: string[]; write: string[] };

/**
 * Takes back review decisions: each proposal goes back to pending with its text as stored, and the
 * learning an accept created is deleted. All or nothing (one transaction). Refused for a proposal still
 * pending, decided more than UNDO_WINDOW_MS ago, in a project the user may not write, decided by
 * someone else (404/403/409), or whose learning was changed since (edited, pinned, …: 409).
 */
export async function undoDecisions(db: Db, principal: Principal, input: unknown, now = new Date()): Promise<number> {
  const items = undoSchema.parse(input);
  const [read, write] = await Promise.all([projectIdsFor(db, principal, "read"), projectIdsFor(db, principal, "write")]);
  return db.transaction(async (tx) => {
    for (const item of items) await undoOne(tx, principal, { read, write }, item.id, now);
    return items.length;
  });
}

async function undoOne(tx: DbOrTx, principal: Principal, projectIds: Scopes, id: string, now: Date): Promise<void> {
  const current = await findProposal(tx, { userId: principal.userId, projectIds: projectIds.read, id });
  if (!current) throw new ApiError("not_found", `No proposal ${id}.`);
  if (current.projectId && !projectIds.write.includes(current.projectId)) {
    throw new ApiError("forbidden", `Your role in "${current.project}" may not review its proposals.`);
  }
  if (current.status === "pending") throw new ApiError("conflict", `Proposal ${id} is pending already.`);
  if (!current.decidedAt || now.getTime() - current.decidedAt.getTime() > UNDO_WINDOW_MS) {
    throw new ApiError("conflict", `Proposal ${id} was decided too long ago to undo.`);
  }
  await refuseUnlessDecider(tx, principal, current);
  const scope = { userId: principal.userId, projectIds: projectIds.write };
  if (current.learningId) await refuseIfChanged(tx, scope, current, current.learningId);
  // What the accept superseded is current again once the learning that replaced it is gone.
  const restored = current.learningId ? await unsupersedeBy(tx, { ...scope, by: current.learningId }) : [];
  if (current.learningId) await deleteLearning(tx, { ...scope, id: current.learningId });
  if (!(await reopenProposal(tx, { ...scope, id, from: current.status }))) {
    throw new ApiError("conflict", `Proposal ${id} changed meanwhile; reload the page.`);
  }
  const supersededBack = restored.length ? `, ${restored.length} superseded learning${restored.length === 1 ? "" : "s"} restored` : "";
  await recordAudit(tx, principal.userId, { action: "undo", subject: "proposal", subjectId: id, label: current.content, projectId: current.projectId, ownerUserId: current.userId, detail: `${current.status} undone${supersededBack}` });
}

/**
 * Only whoever made the decision takes it back (an owner included: another member's decision stands
 * until it is reviewed the ordinary way, by editing or deleting the learning). A personal proposal is
 * its owner's alone to decide; a project's decider is in the audit trail, written with the decision.
 */
async function refuseUnlessDecider(tx: DbOrTx, principal: Principal, proposal: ProposalRow): Promise<void> {
  const decider = proposal.projectId
    ? await latestActorOf(tx, { projectId: proposal.projectId, subjectKind: "proposal", subjectId: proposal.id, actions: ["accept", "reject"] })
    : proposal.userId;
  if (decider !== principal.userId) {
    throw new ApiError("conflict", `Proposal ${proposal.id} was ${proposal.status} by someone else; only they can undo it.`);
  }
}

/** An accept whose learning someone changed since is not undone: the delete would throw their work away. */
async function refuseIfChanged(tx: DbOrTx, scope: { userId: string; projectIds: string[] }, proposal: ProposalRow, learningId: string): Promise<void> {
  const learning = await findLearning(tx, { ...scope, id: learningId });
  const changes = learning ? changedSinceAccept(learning, proposal) : [];
  if (changes.length) {
    throw new ApiError("conflict", `The learning accepted from proposal ${proposal.id} was ${changes.join(", ")} since; undoing the accept would delete that. Change or delete the learning itself instead.`);
  }
}
