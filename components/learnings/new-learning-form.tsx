"use client";

import { useActionState } from "react";
import { createLearningAction } from "@/lib/actions/learning-actions";
import { initialFormState } from "@/lib/actions/form-state";
import { LEARNING_KINDS, MAX_CONTENT_CHARS } from "@/lib/rules";
import { ProjectSelect, type ProjectOption } from "../projects/project-select";
import { FormMessage } from "../ui/form-message";
import { SubmitButton } from "../ui/submit-button";
import { KindSelect } from "./kind-select";

/** Adds a learning by hand: personal, or shared with a project the user may write to. */
export function NewLearningForm({ projects }: { projects: ProjectOption[] }) {
  const [state, action] = useActionState(createLearningAction, initialFormState);
  return (
    <form action={action} className="stack-sm">
      <FormMessage state={state} />
      <div className="field">
        <label htmlFor="new-content">Text</label>
        <textarea id="new-content" name="content" rows={2} required maxLength={MAX_CONTENT_CHARS} placeholder="Run the migrations before the tests." />
        {state.fieldErrors?.content ? <p className="field-error">{state.fieldErrors.content}</p> : null}
      </div>
      <div className="form-row">
        <KindSelect id="new-kind" defaultValue={LEARNING_KINDS[0]} />
        <ProjectSelect id="new-project" label="Shared with" projects={projects} defaultValue="">
          <option value="">Only me (personal)</option>
        </ProjectSelect>
        <div className="field">
          <label htmlFor="new-tags">Tags</label>
          <input id="new-tags" name="tags" placeholder="testing, git" />
        </div>
        <label className="check-label">
          <input type="checkbox" name="confirmed" defaultChecked /> Confirmed
        </label>
        <SubmitButton>Add learning</SubmitButton>
      </div>
    </form>
  );
}
