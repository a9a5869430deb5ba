"use client";

import { useActionState } from "react";
import { initialFormState, type FormState, type LinkShown } from "@/lib/actions/form-state";
import { FormMessage } from "./form-message";
import { ShownOnce } from "./shown-once";
import { SubmitButton } from "./submit-button";

type Props = {
  /** A server action that makes a new secret link (voiding the one before) and answers it once. */
  action: (state: FormState<LinkShown>, form: FormData) => Promise<FormState<LinkShown>>;
  /** The hidden fields that say whose link it is. */
  fields: Record<string, string>;
  label: string;
  /** Whose it is, for screen readers: one such button per row. */
  email: string;
  testId: string;
};

/**
 * One button that makes a secret link (an invitation's, a password reset's) and shows it once to copy:
 * only its hash is kept, so a lost link is replaced, never shown again.
 */
export function LinkOnceForm({ action, fields, label, email, testId }: Props) {
  const [state, formAction] = useActionState<FormState<LinkShown>, FormData>(action, initialFormState);
  return (
    <div className="stack-sm">
      <form action={formAction} className="inline-form">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <SubmitButton variant="secondary">
          {label}
          <span className="visually-hidden"> for {email}</span>
        </SubmitButton>
      </form>
      {state.ok && state.data ? <ShownOnce text={state.data.link} message={state.message ?? ""} testId={testId} /> : <FormMessage state={state} />}
    </div>
  );
}
