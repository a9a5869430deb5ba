"use client";

import { useActionState } from "react";
import { joinAction } from "@/lib/actions/auth-actions";
import { initialFormState } from "@/lib/actions/form-state";
import { Field } from "../ui/field";
import { FormMessage } from "../ui/form-message";
import { SubmitButton } from "../ui/submit-button";

/** Creates the invited email's account (its email fixed by the invitation) and joins the project. */
export function JoinForm({ token, email }: { token: string; email: string }) {
  const [state, action] = useActionState(joinAction, initialFormState);
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} className="stack">
      <FormMessage state={state} />
      <input type="hidden" name="token" value={token} />
      <div className="field">
        <label htmlFor="email">Email</label>
        <input id="email" type="email" value={email} readOnly aria-describedby="email-hint" autoComplete="username" />
        <p id="email-hint" className="hint">
          The invitation&apos;s: the account is made for this address.
        </p>
      </div>
      <Field label="Your name" name="name" autoComplete="name" required autoFocus defaultValue={state.values?.name} error={errors.name} />
      <Field label="Password" name="password" type="password" autoComplete="new-password" required hint="At least 8 characters." error={errors.password} />
      <Field label="Password again" name="confirm" type="password" autoComplete="new-password" required error={errors.confirm} />
      <SubmitButton>Create my account and join</SubmitButton>
    </form>
  );
}
