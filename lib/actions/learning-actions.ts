"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireUser } from "../auth/session";
import { createLearning, editLearning, removeLearning } from "../learnings/learnings";
import { LEARNING_KINDS } from "../rules";
import { formError } from "./form-errors";
import type { FormState } from "./form-state";

const idSchema = z.string().min(1).max(100);

/** "a, b c" → ["a", "b", "c"]: people type tags either way. */
const tagsField = z
  .string()
  .max(2000)
  .transform((s) => [...new Set(s.split(/[\s,]+/).filter(Boolean))]);

const editSchema = z.object({
  id: idSchema,
  kind: z.enum(LEARNING_KINDS),
  content: z.string(),
  tags: tagsField,
});

const newSchema = z.object({
  kind: z.enum(LEARNING_KINDS),
  content: z.string(),
  project: z.string().max(64),
  tags: tagsField,
  confirmed: z.literal("on").optional(),
});

function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

export async function createLearningAction(_prev: FormState, form: FormData): Promise<FormState> {
  const { db, principal } = await requireUser();
  try {
    const input = newSchema.parse({
      kind: text(form, "kind"),
      content: text(form, "content"),
      project: text(form, "project"),
      tags: text(form, "tags"),
      confirmed: form.get("confirmed") ?? undefined,
    });
    await createLearning(db, principal, { ...input, project: input.project || null, confirmed: input.confirmed === "on", source: "manual" });
    revalidatePath("/learnings");
    return { ok: true, message: "Learning added." };
  } catch (error) {
    return formError(error);
  }
}

export async function editLearningAction(_prev: FormState, form: FormData): Promise<FormState> {
  const { db, principal } = await requireUser();
  try {
    const { id, ...patch } = editSchema.parse({ id: text(form, "id"), kind: text(form, "kind"), content: text(form, "content"), tags: text(form, "tags") });
    await editLearning(db, principal, id, patch);
    revalidatePath("/learnings");
    return { ok: true, message: "Saved." };
  } catch (error) {
    return formError(error);
  }
}

/** confirmed = "true" | "false": a learning confirmed by a person ranks before unconfirmed ones in a context. */
export async function setLearningConfirmedAction(_prev: FormState, form: FormData): Promise<FormState> {
  const { db, principal } = await requireUser();
  try {
    const { id, confirmed } = z.object({ id: idSchema, confirmed: z.enum(["true", "false"]) }).parse({ id: text(form, "id"), confirmed: text(form, "confirmed") });
    await editLearning(db, principal, id, { confirmed: confirmed === "true" });
    revalidatePath("/learnings");
    return { ok: true, message: confirmed === "true" ? "Confirmed." : "Marked unconfirmed." };
  } catch (error) {
    return formError(error);
  }
}

export async function deleteLearningAction(_prev: FormState, form: FormData): Promise<FormState> {
  const { db, principal } = await requireUser();
  try {
    await removeLearning(db, principal, idSchema.parse(text(form, "id")));
    revalidatePath("/learnings");
    return { ok: true, message: "Deleted." };
  } catch (error) {
    return formError(error);
  }
}
