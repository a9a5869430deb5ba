"use client";

import { useActionState } from "react";
import { answerCliLoginAction } from "@/lib/actions/cli-login-actions";
import { PROJECT_FIELD } from "@/lib/actions/cli-login-fields";
import { initialFormState, type FormState } from "@/lib/actions/form-state";
import { Field } from "../ui/field";
import { FormMessage } from "../ui/form-message";
import { SubmitButton } from "../ui/submit-button";

type Props = {
  /** The code as shown (ABCD-EFGH), sent back with the answer. */
  code: string;
  defaultName: string;
  projects: { slug: string; name: string }[];
};

/** Approve a `baton login` with the token's name, scope and projects, or deny it: one form, two buttons. */
export function ApproveLoginForm({ code, defaultName, projects }: Props) {
  const [state, action] = useActionState<FormState, FormData>(answerCliLoginAction, initialFormState);
  if (state.ok) return <FormMessage state={state} />;
  return (
    <div className="stack">
      <FormMessage state={state} />
      <form action={action} className="stack">
        <input type="hidden" name="code" value={code} />
        <Field label="Token name" name="name" required defaultValue={defaultName} hint="Shown in API tokens, where you can revoke it." error={state.fieldErrors?.name} />
        <fieldset className="stack-sm">
          <legend>Scope</legend>
          <label className="check-label">
            <input type="radio" name="scope" value="write" defaultChecked /> write: hooks, MCP tools, handoffs (what agents need)
          </label>
          <label className="check-label">
            <input type="radio" name="scope" value="read" /> read only
          </label>
        </fieldset>
        <fieldset className="stack-sm">
          <legend>Projects</legend>
          <p className="hint">None ticked: every project of yours, now and later.</p>
          {projects.map((p) => (
            <label key={p.slug} className="check-label">
              <input type="checkbox" name={`${PROJECT_FIELD}${p.slug}`} /> only {p.name} ({p.slug})
            </label>
          ))}
        </fieldset>
        <div className="form-row">
          <SubmitButton name="decision" value="approve">
            Approve
          </SubmitButton>
          <SubmitButton name="decision" value="deny" variant="danger">
            Deny
          </SubmitButton>
        </div>
      </form>
    </div>
  );
}
