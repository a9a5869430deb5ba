"use client";

import { useActionState } from "react";
import { resetPasswordAction } from "@/lib/actions/auth-actions";
import { initialFormState } from "@/lib/actions/form-state";
import { Field } from "../ui/field";
import { FormMessage } from "../ui/form-message";
import { SubmitButton } from "../ui/submit-button";

/** A new password through an admin's reset link (the account fixed by the link). */
export function ResetPasswordForm({ token, email }: { token: string; email: string }) {
  const [state, action] = useActionState(resetPasswordAction, initialFormState);
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} className="stack">
      <FormMessage state={state} />
      <input type="hidden" name="token" value={token} />
      {/* For password managers: which account the new password is for. */}
      <input type="hidden" name="username" value={email} autoComplete="username" />
      <Field label="New password" name="password" type="password" autoComplete="new-password" required autoFocus hint="At least 8 characters." error={errors.password} />
      <Field label="New password again" name="confirm" type="password" autoComplete="new-password" required error={errors.confirm} />
      <SubmitButton>Set my password</SubmitButton>
    </form>
  );
}
