"use client";

import { useActionState, useState } from "react";
import { initialFormState } from "@/lib/actions/form-state";
import { createProjectAction } from "@/lib/actions/project-actions";
import { Field } from "../ui/field";
import { FormMessage } from "../ui/form-message";
import { SubmitButton } from "../ui/submit-button";
import { slugFromName } from "./slug-from-name";

/**
 * Names a new project; the slug follows the name until the user types a slug of their own. A refused
 * form keeps both as typed (the action echoes them back for the page rendered without JavaScript).
 */
export function CreateProjectForm() {
  const [state, action] = useActionState(createProjectAction, initialFormState);
  const [name, setName] = useState(state.values?.name ?? "");
  const [slug, setSlug] = useState(state.values?.slug ?? "");
  const [slugEdited, setSlugEdited] = useState(false);
  const [settled, setSettled] = useState(state);
  if (settled !== state) {
    setSettled(state);
    // Created: the form is ready for the next one.
    if (state.ok) {
      setName("");
      setSlug("");
      setSlugEdited(false);
    }
  }
  return (
    <div className="stack">
      <FormMessage state={state} />
      <form action={action} className="form-row">
        <Field
          label="Name"
          name="name"
          required
          placeholder="Web app"
          error={state.fieldErrors?.name}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            if (!slugEdited) setSlug(slugFromName(event.target.value));
          }}
        />
        <Field
          label="Slug"
          name="slug"
          required
          placeholder="web-app"
          hint="lowercase, digits, dashes"
          error={state.fieldErrors?.slug}
          value={slug}
          onChange={(event) => {
            setSlug(event.target.value);
            // Emptied, it follows the name again.
            setSlugEdited(event.target.value !== "");
          }}
        />
        <SubmitButton>Create project</SubmitButton>
      </form>
    </div>
  );
}
