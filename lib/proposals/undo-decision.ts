import { z } from "zod";
import { ApiError } from "../api/errors";
import { recordAudit } from "../audit/record-audit";
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { deleteLearning, unsupersedeBy } from "../db/queries/learnings";
import { reopenProposal } from "../db/queries/proposal-queue";
import { findProposal } from "../db/queries/proposals";
import { contentSchema } from "../learnings/learning-schemas";
import { projectIdsFor } from "../projects/projects";

/** An undo is for a decision just made on the review page, not a way to reopen old history. */
export const UNDO_WINDOW_MS = 24 * 60 * 60 * 1000;

export const undoSchema = z
  .array(
    z.strictObject({
      id: z.string().min(1).max(100),
      /** The text the proposal had before an edit-then-accept replaced it. */
      content: contentSchema.optional(),
    }),
  )
  .min(1)
  .max(500);

/**
 * Takes back review decisions: each proposal goes back to pending (with its original text when given),
 * and the learning an accept created is deleted. All or nothing (one transaction). Refused for a
 * proposal still pending, decided more than UNDO_WINDOW_MS ago, or in a project the user may not write.
 */
export async function undoDecisions(db: Db, principal: Principal, input: unknown, now = new Date()): Promise<number> {
  const items = undoSchema.parse(input);
  const [read, write] = await Promise.all([projectIdsFor(db, principal, "read"), projectIdsFor(db, principal, "write")]);
  return db.transaction(async (tx) => {
    for (const item of items) {
      const current = await findProposal(tx, { userId: principal.userId, projectIds: read, id: item.id });
      if (!current) throw new ApiError("not_found", `No proposal ${item.id}.`);
      if (current.projectId && !write.includes(current.projectId)) {
        throw new ApiError("forbidden", `Your role in "${current.project}" may not review its proposals.`);
      }
      if (current.status === "pending") throw new ApiError("conflict", `Proposal ${item.id} is pending already.`);
      if (!current.decidedAt || now.getTime() - current.decidedAt.getTime() > UNDO_WINDOW_MS) {
        throw new ApiError("conflict", `Proposal ${item.id} was decided too long ago to undo.`);
      }
      const scope = { userId: principal.userId, projectIds: write };
      // What the accept superseded is current again once the learning that replaced it is gone.
      const restored = current.learningId ? await unsupersedeBy(tx, { ...scope, by: current.learningId }) : [];
      if (current.learningId) await deleteLearning(tx, { ...scope, id: current.learningId });
      if (!(await reopenProposal(tx, { ...scope, id: item.id, from: current.status, content: item.content }))) {
        throw new ApiError("conflict", `Proposal ${item.id} changed meanwhile; reload the page.`);
      }
      const label = item.content ?? current.content;
      await recordAudit(tx, principal.userId, { action: "undo", subject: "proposal", subjectId: item.id, label, projectId: current.projectId, ownerUserId: current.userId, detail: `${current.status} undone${restored.length ? `, ${restored.length} superseded learning${restored.length === 1 ? "" : "s"} restored` : ""}` });
    }
    return items.length;
  });
}
