"use server";

import { revalidatePath } from "next/cache";
import { requireUser } from "../auth/session";
import { acceptProposal, rejectProposal, reviewProposals } from "../proposals/proposals";
import { reviewSchema } from "../proposals/proposal-schemas";
import { undoDecisions, undoSchema } from "../proposals/undo-decision";
import { formError } from "./form-errors";
import type { FormState } from "./form-state";

// Two ways in: the review page with JavaScript calls reviewAction / undoAction directly (the page keeps
// its own state, so nothing is revalidated); without JavaScript each row's form posts
// decideProposalFormAction and the page renders again.

/** Accepts or rejects one or more proposals, all or none. */
export async function reviewAction(input: unknown): Promise<FormState<{ decided: number }>> {
  const { db, principal } = await requireUser();
  try {
    const decisions = reviewSchema.parse(input);
    const results = await reviewProposals(db, principal, decisions);
    return { ok: true, data: { decided: results.length } };
  } catch (error) {
    return formError(error);
  }
}

/** Takes decisions back: the proposals are pending again and accepted ones' learnings are gone. */
export async function undoAction(input: unknown): Promise<FormState<{ undone: number }>> {
  const { db, principal } = await requireUser();
  try {
    const items = undoSchema.parse(input);
    return { ok: true, data: { undone: await undoDecisions(db, principal, items) } };
  } catch (error) {
    return formError(error);
  }
}

/** One row's form (no JavaScript): decision = accept | reject; content = the edited text, if any. */
export async function decideProposalFormAction(_prev: FormState, form: FormData): Promise<FormState> {
  const { db, principal } = await requireUser();
  const id = String(form.get("id") ?? "");
  const content = form.get("content");
  try {
    if (form.get("decision") === "reject") await rejectProposal(db, principal, id);
    else await acceptProposal(db, principal, id, typeof content === "string" && content.trim() ? { content } : {});
    revalidatePath("/proposals");
    return { ok: true, message: form.get("decision") === "reject" ? "Proposal rejected." : "Proposal accepted as a learning." };
  } catch (error) {
    return formError(error);
  }
}
