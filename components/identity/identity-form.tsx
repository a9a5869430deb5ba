"use client";

import { useActionState } from "react";
import { initialFormState } from "@/lib/actions/form-state";
import { updateIdentityAction } from "@/lib/actions/identity-actions";
import { Field } from "../ui/field";
import { FormMessage } from "../ui/form-message";
import { SubmitButton } from "../ui/submit-button";

/** The identity fields as the form shows them: "" where nothing is stored. */
export type IdentityValues = {
  aiName: string;
  principalName: string;
  catchphrase: string;
  voiceId: string;
  responseStyle: string;
  timezone: string;
  locale: string;
};

/** Edits the seed's identity; an emptied optional field is removed. A refused form keeps what was typed. */
export function IdentityForm({ current, responseStyles }: { current: IdentityValues; responseStyles: readonly string[] }) {
  const [state, action] = useActionState(updateIdentityAction, initialFormState);
  const value = (name: keyof IdentityValues) => state.values?.[name] ?? current[name];
  const error = (name: keyof IdentityValues) => state.fieldErrors?.[name];
  return (
    <form action={action} className="stack">
      <FormMessage state={state} />
      <fieldset className="fieldset stack">
        <legend>Who is who</legend>
        <div className="form-row form-row-top">
          <Field label="AI name" name="aiName" required defaultValue={value("aiName")} error={error("aiName")} hint="What your agent calls itself." />
          <Field label="Your name" name="principalName" required defaultValue={value("principalName")} error={error("principalName")} hint="Whom it works for." />
        </div>
        <Field label="Catchphrase" name="catchphrase" defaultValue={value("catchphrase")} error={error("catchphrase")} hint="Optional: a line it may greet you with." />
        <Field label="Voice id" name="voiceId" defaultValue={value("voiceId")} error={error("voiceId")} hint="Optional: for a text-to-speech voice." />
      </fieldset>
      <fieldset className="fieldset stack">
        <legend>Preferences</legend>
        <div className="form-row form-row-top">
          <div className="field">
            <label htmlFor="responseStyle">Response style</label>
            <select id="responseStyle" name="responseStyle" defaultValue={value("responseStyle")} aria-invalid={error("responseStyle") ? true : undefined}>
              <option value="">Not set</option>
              {responseStyles.map((style) => (
                <option key={style} value={style}>
                  {style}
                </option>
              ))}
            </select>
            {error("responseStyle") ? <p className="field-error">{error("responseStyle")}</p> : null}
          </div>
          <Field label="Time zone" name="timezone" defaultValue={value("timezone")} error={error("timezone")} placeholder="Europe/Berlin" />
          <Field label="Locale" name="locale" defaultValue={value("locale")} error={error("locale")} placeholder="en-GB" />
        </div>
      </fieldset>
      <div>
        <SubmitButton>Save identity</SubmitButton>
      </div>
    </form>
  );
}
