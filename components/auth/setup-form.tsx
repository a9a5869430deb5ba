"use client";

import { useActionState } from "react";
import { setupAction } from "@/lib/actions/auth-actions";
import { initialFormState } from "@/lib/actions/form-state";
import { Field } from "../ui/field";
import { FormMessage } from "../ui/form-message";
import { SubmitButton } from "../ui/submit-button";

export function SetupForm({ askForCode }: { askForCode: boolean }) {
  const [state, action] = useActionState(setupAction, initialFormState);
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} className="stack">
      <FormMessage state={state} />
      {askForCode ? (
        <Field
          label="Setup code"
          name="code"
          autoComplete="off"
          required
          autoFocus
          hint="Printed on the server's console when it started (baton: first-run setup …)."
          error={errors.code}
        />
      ) : null}
      <Field label="Your name" name="name" autoComplete="name" required autoFocus={!askForCode} defaultValue={state.values?.name} error={errors.name} />
      <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={state.values?.email} error={errors.email} />
      <Field label="Password" name="password" type="password" autoComplete="new-password" required hint="At least 8 characters." error={errors.password} />
      <Field label="Password again" name="confirm" type="password" autoComplete="new-password" required error={errors.confirm} />
      <SubmitButton>Create the admin account</SubmitButton>
    </form>
  );
}
