"use client";

import { useActionState } from "react";
import { initialFormState, type FormState } from "@/lib/actions/form-state";
import { createTokenAction } from "@/lib/actions/token-actions";
import { Field } from "../ui/field";
import { FormMessage } from "../ui/form-message";
import { ShownOnce } from "../ui/shown-once";
import { SubmitButton } from "../ui/submit-button";

export function CreateTokenForm({ projects }: { projects: { slug: string; name: string }[] }) {
  const [state, action] = useActionState<FormState<{ token: string }>, FormData>(createTokenAction, initialFormState);
  return (
    <div className="stack">
      {state.ok && state.data ? <ShownOnce text={state.data.token} message={state.message ?? ""} testId="new-token" /> : <FormMessage state={state} />}
      <form action={action} className="form-row">
        <Field label="Name" name="name" required placeholder="laptop hooks" error={state.fieldErrors?.name} />
        <div className="field">
          <label htmlFor="scope">Scope</label>
          <select id="scope" name="scope" defaultValue="write">
            <option value="write">write (hooks, MCP)</option>
            <option value="read">read only</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="project">Projects</label>
          <select id="project" name="project" defaultValue="">
            <option value="">all my projects</option>
            {projects.map((p) => (
              <option key={p.slug} value={p.slug}>
                only {p.slug}
              </option>
            ))}
          </select>
        </div>
        <SubmitButton>Create token</SubmitButton>
      </form>
    </div>
  );
}
