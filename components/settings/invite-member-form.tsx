"use client";

import { useActionState } from "react";
import { inviteMemberAction } from "@/lib/actions/invitation-actions";
import { initialFormState, type FormState, type LinkShown } from "@/lib/actions/form-state";
import { Field } from "../ui/field";
import { FormMessage } from "../ui/form-message";
import { ShownOnce } from "../ui/shown-once";
import { SubmitButton } from "../ui/submit-button";

/** Invites someone by email with a role and shows the invitation link once; they become a member when they accept. */
export function InviteMemberForm({ slug }: { slug: string }) {
  const [state, action] = useActionState<FormState<LinkShown>, FormData>(inviteMemberAction, initialFormState);
  return (
    <div className="stack-sm">
      {state.ok && state.data ? <ShownOnce text={state.data.link} message={state.message ?? ""} testId="invitation-link" /> : <FormMessage state={state} />}
      <form action={action} className="form-row">
        <input type="hidden" name="slug" value={slug} />
        <Field label="Email" name="email" type="email" required placeholder="ana@example.com" defaultValue={state.ok ? "" : state.values?.email} error={state.fieldErrors?.email} />
        <div className="field">
          <label htmlFor="member-role">Role</label>
          <select id="member-role" name="role" defaultValue="member">
            <option value="member">member: reads and writes</option>
            <option value="viewer">viewer: reads only</option>
            <option value="owner">owner: also manages the project</option>
          </select>
        </div>
        <SubmitButton>Invite</SubmitButton>
      </form>
    </div>
  );
}
