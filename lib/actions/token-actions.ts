"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ApiError } from "../api/errors";
import { createApiToken, revokeApiToken } from "../auth/api-tokens";
import { requireUser } from "../auth/session";
import { formAction } from "./form-action";
import { readForm } from "./read-form";

const TOKENS_PAGE = "/settings/tokens";

const newTokenForm = z.object({
  name: z.string(),
  scope: z
    .string()
    .optional()
    .transform((scope) => (scope === "read" ? "read" : "write")),
  /** One project, or "" for every project of the user. */
  project: z
    .string()
    .optional()
    .transform((slug) => (slug ? [slug] : [])),
});

export const createTokenAction = formAction(
  newTokenForm,
  async ({ name, scope, project }, { db, user }) => {
    const { token, record } = await createApiToken(db, { userId: user.id, name, scope, projects: project });
    return { message: `Token "${record.name}" created. Copy it now: it is shown only once.`, data: { token } };
  },
  { revalidate: [TOKENS_PAGE] },
);

/**
 * A plain `<form action>` with no state to answer into (the page renders again without the token), so
 * not through formAction: an unexpected failure goes to Next's error page. A token already revoked (a
 * second click, a stale tab) or not the user's is gone from their list either way, and a request that
 * is not a form (readForm's bad request) revokes nothing: the page renders again.
 */
export async function revokeTokenAction(form: FormData): Promise<void> {
  const { db, user } = await requireUser();
  try {
    const { id } = z.object({ id: z.string().default("") }).parse(readForm(form));
    await revokeApiToken(db, { userId: user.id, tokenId: id });
  } catch (error) {
    if (!(error instanceof ApiError && (error.code === "not_found" || error.code === "bad_request"))) throw error;
  }
  revalidatePath(TOKENS_PAGE);
}
