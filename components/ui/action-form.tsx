"use client";

import { useActionState } from "react";
import type { FormState } from "@/lib/actions/form-state";
import { initialFormState } from "@/lib/actions/form-state";
import { FormMessage } from "./form-message";
import { SubmitButton } from "./submit-button";

type Props = {
  action: (prev: FormState, form: FormData) => Promise<FormState>;
  /** Hidden inputs: which thing the button acts on. */
  fields: Record<string, string>;
  children: React.ReactNode;
  variant?: "primary" | "secondary" | "danger";
  className?: string;
};

/** One button that runs a server action (with or without JavaScript) and shows what came of it. */
export function ActionForm({ action, fields, children, variant = "secondary", className }: Props) {
  const [state, formAction] = useActionState(action, initialFormState);
  return (
    <form action={formAction} className={className ?? "inline-form"}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <SubmitButton variant={variant}>{children}</SubmitButton>
      {state.ok ? null : <FormMessage state={state} />}
    </form>
  );
}
