"use client";

import { useActionState } from "react";
import { changePasswordAction, signOutOthersAction } from "@/lib/actions/account-actions";
import { initialFormState } from "@/lib/actions/form-state";
import { Field } from "../ui/field";
import { FormMessage } from "../ui/form-message";
import { SubmitButton } from "../ui/submit-button";

/** A new password, given the current one; optionally signing out every other session. */
export function ChangePasswordForm() {
  const [state, action] = useActionState(changePasswordAction, initialFormState);
  return (
    <div className="stack-sm">
      <FormMessage state={state} />
      <form action={action} className="stack-sm" key={state.ok ? "done" : "open"}>
        <Field label="Current password" name="current" type="password" required autoComplete="current-password" error={state.fieldErrors?.current} />
        <Field label="New password" name="password" type="password" required autoComplete="new-password" hint="At least 8 characters." error={state.fieldErrors?.password} />
        <Field label="New password again" name="confirm" type="password" required autoComplete="new-password" error={state.fieldErrors?.confirm} />
        <label className="check-label">
          <input type="checkbox" name="signOutOthers" defaultChecked /> Sign out everywhere else
        </label>
        <SubmitButton>Change password</SubmitButton>
      </form>
    </div>
  );
}

/** Ends every session of this user but this one (another browser, a lost laptop). */
export function SignOutOthersForm({ others }: { others: number }) {
  const [state, action] = useActionState(signOutOthersAction, initialFormState);
  return (
    <div className="stack-sm">
      <FormMessage state={state} />
      <p className="muted">{others === 0 ? "You are signed in here only." : `You are signed in in ${others} other place${others === 1 ? "" : "s"} besides this one.`}</p>
      <form action={action}>
        <SubmitButton variant="danger">Sign out everywhere else</SubmitButton>
      </form>
    </div>
  );
}
