"use client";

import { useActionState } from "react";
import { createLearningAction } from "@/lib/actions/learning-actions";
import { initialFormState } from "@/lib/actions/form-state";
import { FormMessage } from "../ui/form-message";
import { SubmitButton } from "../ui/submit-button";

/** Adds a learning by hand: personal, or shared with a project the user may write to. */
export function NewLearningForm({ projects }: { projects: { slug: string; name: string }[] }) {
  const [state, action] = useActionState(createLearningAction, initialFormState);
  return (
    <form action={action} className="stack-sm">
      <FormMessage state={state} />
      <div className="field">
        <label htmlFor="new-content">Text</label>
        <textarea id="new-content" name="content" rows={2} required placeholder="Run the migrations before the tests." />
        {state.fieldErrors?.content ? <p className="field-error">{state.fieldErrors.content}</p> : null}
      </div>
      <div className="form-row">
        <div className="field">
          <label htmlFor="new-kind">Kind</label>
          <select id="new-kind" name="kind" defaultValue="pattern">
            <option value="pattern">Pattern</option>
            <option value="insight">Insight</option>
            <option value="self_knowledge">Self-knowledge</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="new-project">Shared with</label>
          <select id="new-project" name="project" defaultValue="">
            <option value="">Only me (personal)</option>
            {projects.map((p) => (
              <option key={p.slug} value={p.slug}>
                {p.name} ({p.slug})
              </option>
            ))}
          </select>
        </div>
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
