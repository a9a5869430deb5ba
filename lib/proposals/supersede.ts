import { ApiError } from "../api/errors";
import { recordAudit } from "../audit/record-audit";
import type { DbOrTx } from "../db/client";
import { findLearning, supersedeLearnings, type LearningScope } from "../db/queries/learnings";
import type { ProposalRow } from "../db/queries/proposals";
import { auditSubject } from "../learnings/learnings";

const whereIs = (l: { project: string | null }) => (l.project ? `project "${l.project}"` : "personal learnings");

/**
 * Marks learnings superseded by the one an accepted proposal just became. Each must be visible to the
 * reviewer (else 404), in the proposal's own scope — its project, or for a personal proposal its
 * owner's personal learnings (else 400: a proposal of one project never hides another's learning) —
 * and not superseded already (else 409). Runs in the accept's transaction, so a refusal undoes the accept.
 */
export async function supersedeFor(
  tx: DbOrTx,
  actorUserId: string,
  readScope: LearningScope,
  decided: { proposal: ProposalRow; learningId: string; ids: string[] },
): Promise<string[]> {
  const { proposal, learningId, ids } = decided;
  const olds = [];
  for (const id of ids) {
    const old = await findLearning(tx, { ...readScope, id });
    if (!old) throw new ApiError("not_found", `No learning ${id} to supersede.`);
    const sameScope = old.projectId === proposal.projectId && (old.projectId !== null || old.userId === proposal.userId);
    if (!sameScope) {
      throw new ApiError("bad_request", `Learning ${id} is in ${whereIs(old)}, the proposal in ${whereIs(proposal)}: a proposal supersedes learnings of its own scope only.`);
    }
    if (old.supersededAt) throw new ApiError("conflict", `Learning ${id} is superseded already.`);
    olds.push(old);
  }
  // Every id was just checked inside this transaction (visible, in scope, not superseded): all are marked.
  const marked = await supersedeLearnings(tx, { userId: proposal.userId, projectId: proposal.projectId, ids, by: learningId, at: new Date() });
  for (const old of olds) {
    await recordAudit(tx, actorUserId, { action: "supersede", ...auditSubject(old), detail: `superseded by learning ${learningId}` });
  }
  return marked;
}
