"use client";

import { useActionState } from "react";
import { initialFormState } from "@/lib/actions/form-state";
import { createProjectAction } from "@/lib/actions/project-actions";
import { Field } from "../ui/field";
import { FormMessage } from "../ui/form-message";
import { SubmitButton } from "../ui/submit-button";

export function CreateProjectForm() {
  const [state, action] = useActionState(createProjectAction, initialFormState);
  return (
    <div className="stack">
      <FormMessage state={state} />
      <form action={action} className="form-row">
        <Field label="Name" name="name" required placeholder="Web app" error={state.fieldErrors?.name} />
        <Field label="Slug" name="slug" required placeholder="web-app" hint="lowercase, digits, dashes" error={state.fieldErrors?.slug} />
        <SubmitButton>Create project</SubmitButton>
      </form>
    </div>
  );
}
