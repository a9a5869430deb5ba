"use server";

import { revalidatePath } from "next/cache";
import { requireUser } from "../auth/session";
import { createProject } from "../projects/projects";
import { formError } from "./form-errors";
import type { FormState } from "./form-state";

export async function createProjectAction(_prev: FormState, form: FormData): Promise<FormState> {
  const { db, principal } = await requireUser();
  try {
    const project = await createProject(db, principal, { slug: form.get("slug"), name: form.get("name") });
    revalidatePath("/");
    revalidatePath("/settings/projects");
    return { ok: true, message: `Project ${project.slug} created.` };
  } catch (error) {
    return formError(error);
  }
}
