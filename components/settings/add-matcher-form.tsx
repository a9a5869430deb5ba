"use client";

import { useActionState } from "react";
import { addMatcherAction } from "@/lib/actions/matcher-actions";
import { initialFormState } from "@/lib/actions/form-state";
import { Field } from "../ui/field";
import { FormMessage } from "../ui/form-message";
import { SubmitButton } from "../ui/submit-button";

/** A working directory (its trailing segments) or a git remote that means this project. */
export function AddMatcherForm({ slug }: { slug: string }) {
  const [state, action] = useActionState(addMatcherAction, initialFormState);
  return (
    <div className="stack-sm">
      <FormMessage state={state} />
      <form action={action} className="form-row">
        <input type="hidden" name="slug" value={slug} />
        <div className="field">
          <label htmlFor="matcher-kind">Match on</label>
          <select id="matcher-kind" name="kind" defaultValue={state.values?.kind ?? "remote"}>
            <option value="remote">git remote</option>
            <option value="cwd">working directory</option>
          </select>
        </div>
        <Field
          label="Pattern"
          name="pattern"
          required
          placeholder="github.com/acme/web or acme/web"
          hint="A remote in any form (ssh, https, .git or not); a directory by its last segments."
          defaultValue={state.ok ? "" : state.values?.pattern}
          error={state.fieldErrors?.pattern}
         
        />
        <SubmitButton>Add matcher</SubmitButton>
      </form>
    </div>
  );
}
