"use server";

import { revalidatePath } from "next/cache";
import { createApiToken, revokeApiToken } from "../auth/api-tokens";
import { requireUser } from "../auth/session";
import { formError } from "./form-errors";
import type { FormState } from "./form-state";

export async function createTokenAction(_prev: FormState<{ token: string }>, form: FormData): Promise<FormState<{ token: string }>> {
  const { db, user } = await requireUser();
  const project = String(form.get("project") ?? "");
  try {
    const { token, record } = await createApiToken(db, {
      userId: user.id,
      name: String(form.get("name") ?? ""),
      scope: form.get("scope") === "read" ? "read" : "write",
      projects: project ? [project] : [],
    });
    revalidatePath("/settings/tokens");
    return { ok: true, message: `Token "${record.name}" created. Copy it now: it is shown only once.`, data: { token } };
  } catch (error) {
    return formError(error);
  }
}

export async function revokeTokenAction(form: FormData): Promise<void> {
  const { db, user } = await requireUser();
  await revokeApiToken(db, { userId: user.id, tokenId: String(form.get("id") ?? "") });
  revalidatePath("/settings/tokens");
}
