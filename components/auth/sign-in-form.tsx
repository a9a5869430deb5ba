"use client";

import { useActionState } from "react";
import { signInAction } from "@/lib/actions/auth-actions";
import { initialFormState } from "@/lib/actions/form-state";
import { Field } from "../ui/field";
import { FormMessage } from "../ui/form-message";
import { SubmitButton } from "../ui/submit-button";

export function SignInForm({ next }: { next: string }) {
  const [state, action] = useActionState(signInAction, initialFormState);
  return (
    <form action={action} className="stack">
      <FormMessage state={state} />
      <input type="hidden" name="next" value={next} />
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        autoFocus
        defaultValue={state.values?.email}
        error={state.fieldErrors?.email}
      />
      <Field label="Password" name="password" type="password" autoComplete="current-password" required error={state.fieldErrors?.password} />
      <SubmitButton>Sign in</SubmitButton>
    </form>
  );
}
