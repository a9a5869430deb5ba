"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireUser } from "../auth/session";
import { slugSchema } from "../projects/project-schemas";
import { addMember, addMemberSchema, changeMemberRole, changeRoleSchema, removeMember, removeMemberSchema } from "../projects/members";
import { formError } from "./form-errors";
import type { FormState } from "./form-state";

// Each action checks the form, then the domain checks that the signed-in user owns the project.

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

export async function addMemberAction(_prev: FormState, form: FormData): Promise<FormState> {
  const { db, principal } = await requireUser();
  const values = { email: field(form, "email") };
  try {
    const slug = slugSchema.parse(field(form, "slug"));
    const input = addMemberSchema.parse({ email: field(form, "email").trim(), role: field(form, "role") });
    const member = await addMember(db, principal, slug, input);
    revalidatePath(`/settings/projects/${slug}`);
    return { ok: true, message: `${member.email} added as ${member.role}.` };
  } catch (error) {
    return { ...formError(error), values };
  }
}

export async function changeMemberRoleAction(_prev: FormState, form: FormData): Promise<FormState> {
  const { db, principal } = await requireUser();
  try {
    const slug = slugSchema.parse(field(form, "slug"));
    const input = changeRoleSchema.parse({ userId: field(form, "userId"), role: field(form, "role") });
    await changeMemberRole(db, principal, slug, input);
    revalidatePath(`/settings/projects/${slug}`);
    return { ok: true, message: `Role changed to ${input.role}.` };
  } catch (error) {
    return formError(error);
  }
}

export async function removeMemberAction(_prev: FormState, form: FormData): Promise<FormState> {
  const { db, principal } = await requireUser();
  try {
    const { slug, ...input } = z.object({ slug: slugSchema }).and(removeMemberSchema).parse({ slug: field(form, "slug"), userId: field(form, "userId") });
    await removeMember(db, principal, slug, input);
    revalidatePath(`/settings/projects/${slug}`);
    return { ok: true, message: "Removed." };
  } catch (error) {
    return formError(error);
  }
}
