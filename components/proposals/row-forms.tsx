"use client";

import { MAX_CONTENT_CHARS } from "@/lib/rules";
import { useActionState } from "react";
import { decideProposalFormAction } from "@/lib/actions/proposal-actions";
import { initialFormState } from "@/lib/actions/form-state";
import { FormMessage } from "../ui/form-message";
import { SubmitButton } from "../ui/submit-button";
import type { QueueEntry } from "./queue-types";
import { acceptFormId } from "./similar-learnings";

/**
 * A row's decisions as plain forms, for a browser without JavaScript (or before it has loaded): each
 * posts to the server action and the page renders again without the decided proposal.
 */
export function RowForms({ entry }: { entry: QueueEntry }) {
  const [state, action] = useActionState(decideProposalFormAction, initialFormState);
  return (
    <div className="stack-sm">
      <FormMessage state={state} />
      <div className="row-actions">
        {/* The similar learnings' boxes (SimilarLearnings) post with this form through their form attribute. */}
        <form action={action} id={acceptFormId(entry)}>
          <input type="hidden" name="id" value={entry.id} />
          <input type="hidden" name="decision" value="accept" />
          <SubmitButton>Accept</SubmitButton>
        </form>
        <form action={action}>
          <input type="hidden" name="id" value={entry.id} />
          <input type="hidden" name="decision" value="reject" />
          <SubmitButton variant="danger">Reject</SubmitButton>
        </form>
      </div>
      <details className="disclosure">
        <summary>Edit, then accept</summary>
        <form action={action} className="stack-sm">
          <input type="hidden" name="id" value={entry.id} />
          <input type="hidden" name="decision" value="accept" />
          <div className="field">
            <label htmlFor={`edit-${entry.id}`}>Text to accept</label>
            <textarea id={`edit-${entry.id}`} name="content" rows={3} defaultValue={entry.content} maxLength={MAX_CONTENT_CHARS} />
          </div>
          <SubmitButton>Accept edited</SubmitButton>
        </form>
      </details>
    </div>
  );
}
