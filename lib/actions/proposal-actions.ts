"use server";

import { z } from "zod";
import { acceptProposal, rejectProposal, reviewProposals } from "../proposals/proposals";
import { reviewSchema } from "../proposals/proposal-schemas";
import { undoDecisions, undoSchema } from "../proposals/undo-decision";
import { formAction, inputAction } from "./form-action";

// Two ways in: the review page with JavaScript calls reviewAction / undoAction directly (the page keeps
// its own state, so nothing is revalidated); without JavaScript each row's form posts
// decideProposalFormAction and the page renders again.

/** Accepts or rejects one or more proposals, all or none. */
export const reviewAction = inputAction(reviewSchema, async (decisions, { db, principal }) => ({
  data: { decided: (await reviewProposals(db, principal, decisions)).length },
}));

/** Takes decisions back: the proposals are pending again and accepted ones' learnings are gone. */
export const undoAction = inputAction(undoSchema, async (items, { db, principal }) => ({
  data: { undone: await undoDecisions(db, principal, items) },
}));

/**
 * One row's form (no JavaScript): decision = accept (the default) | reject; content = the edited text,
 * if any; supersede-0, supersede-1, …: the ids of the similar learnings ticked to be superseded.
 */
const decisionForm = z
  .looseObject({
    id: z.string(),
    decision: z.string().optional(),
    content: z.string().optional(),
  })
  .transform(({ id, decision, content, ...rest }) => ({
    id,
    decision,
    content,
    supersedes: Object.entries(rest).flatMap(([name, value]) => (/^supersede-\d+$/.test(name) && typeof value === "string" ? [value] : [])),
  }));

export const decideProposalFormAction = formAction(
  decisionForm,
  async ({ id, decision, content, supersedes }, { db, principal }) => {
    if (decision === "reject") {
      await rejectProposal(db, principal, id);
      return { message: "Proposal rejected." };
    }
    const result = await acceptProposal(db, principal, id, { ...(content?.trim() ? { content } : {}), ...(supersedes.length ? { supersedes } : {}) });
    const replaced = result.superseded.length;
    return { message: `Proposal accepted as a learning${replaced ? `; ${replaced} superseded` : ""}.` };
  },
  { revalidate: ["/proposals"] },
);
