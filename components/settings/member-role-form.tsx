"use client";

import { useActionState } from "react";
import { changeMemberRoleAction } from "@/lib/actions/member-actions";
import { initialFormState } from "@/lib/actions/form-state";
import { FormMessage } from "../ui/form-message";
import { SubmitButton } from "../ui/submit-button";

/** A member's role as a select with its own submit button (works without JavaScript). */
export function MemberRoleForm({ slug, userId, email, role }: { slug: string; userId: string; email: string; role: string }) {
  const [state, action] = useActionState(changeMemberRoleAction, initialFormState);
  const id = `role-${userId}`;
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="userId" value={userId} />
      <label htmlFor={id} className="visually-hidden">
        Role of {email}
      </label>
      <select id={id} name="role" defaultValue={role}>
        <option value="owner">owner</option>
        <option value="member">member</option>
        <option value="viewer">viewer</option>
      </select>
      <SubmitButton variant="secondary">Change role</SubmitButton>
      {state.message && !state.ok ? <FormMessage state={state} /> : null}
    </form>
  );
}
