"use client";

import { useActionState } from "react";
import { resetLinkAction, type ResetLinkData } from "@/lib/actions/admin-actions";
import { initialFormState, type FormState } from "@/lib/actions/form-state";
import { FormMessage } from "../ui/form-message";
import { ShownOnce } from "../ui/shown-once";
import { SubmitButton } from "../ui/submit-button";

/** Makes a password reset link for a user (an older one stops working) and shows it once. */
export function ResetLinkForm({ userId, email }: { userId: string; email: string }) {
  const [state, action] = useActionState<FormState<ResetLinkData>, FormData>(resetLinkAction, initialFormState);
  return (
    <div className="stack-sm">
      <form action={action} className="inline-form">
        <input type="hidden" name="userId" value={userId} />
        <SubmitButton variant="secondary">
          Reset link<span className="visually-hidden"> for {email}</span>
        </SubmitButton>
      </form>
      {state.ok && state.data ? <ShownOnce text={state.data.link} message={state.message ?? ""} testId="reset-link" /> : <FormMessage state={state} />}
    </div>
  );
}
