"use client";

import { useActionState } from "react";
import { renewInvitationLinkAction, type LinkShown } from "@/lib/actions/invitation-actions";
import { initialFormState, type FormState } from "@/lib/actions/form-state";
import { FormMessage } from "../ui/form-message";
import { ShownOnce } from "../ui/shown-once";
import { SubmitButton } from "../ui/submit-button";

/** Makes a new link for a pending invitation (the old one stops) and shows it once. */
export function RenewLinkForm({ slug, id, email }: { slug: string; id: string; email: string }) {
  const [state, action] = useActionState<FormState<LinkShown>, FormData>(renewInvitationLinkAction, initialFormState);
  return (
    <div className="stack-sm">
      <form action={action} className="inline-form">
        <input type="hidden" name="slug" value={slug} />
        <input type="hidden" name="id" value={id} />
        <SubmitButton variant="secondary">
          New link<span className="visually-hidden"> for {email}</span>
        </SubmitButton>
      </form>
      {state.ok && state.data ? <ShownOnce text={state.data.link} message={state.message ?? ""} testId="invitation-link" /> : <FormMessage state={state} />}
    </div>
  );
}
