"use server";

import { revalidatePath } from "next/cache";
import { requireUser } from "../auth/session";
import { addMatcher, matcherIdSchema, newMatcherSchema, removeMatcher } from "../projects/matchers";
import { slugSchema } from "../projects/project-schemas";
import { formError } from "./form-errors";
import type { FormState } from "./form-state";

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

export async function addMatcherAction(_prev: FormState, form: FormData): Promise<FormState> {
  const { db, principal } = await requireUser();
  const values = { pattern: field(form, "pattern"), kind: field(form, "kind") };
  try {
    const slug = slugSchema.parse(field(form, "slug"));
    const input = newMatcherSchema.parse({ kind: field(form, "kind"), pattern: field(form, "pattern") });
    await addMatcher(db, principal, slug, input);
    revalidatePath(`/settings/projects/${slug}`);
    return { ok: true, message: `Matcher added: ${input.pattern}.` };
  } catch (error) {
    return { ...formError(error), values };
  }
}

export async function removeMatcherAction(_prev: FormState, form: FormData): Promise<FormState> {
  const { db, principal } = await requireUser();
  try {
    const slug = slugSchema.parse(field(form, "slug"));
    await removeMatcher(db, principal, slug, matcherIdSchema.parse({ id: field(form, "id") }));
    revalidatePath(`/settings/projects/${slug}`);
    return { ok: true, message: "Matcher removed." };
  } catch (error) {
    return formError(error);
  }
}
