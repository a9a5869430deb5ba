"use server";

import { z } from "zod";
import { answerCliLogin } from "../auth/cli-login";
import { PROJECT_FIELD } from "./cli-login-fields";
import { formAction } from "./form-action";

const answerForm = z.record(z.string(), z.string()).transform((fields) => ({
  code: fields.code ?? "",
  decision: fields.decision ?? "",
  name: fields.name ?? "",
  scope: fields.scope,
  projects: Object.keys(fields)
    .filter((key) => key.startsWith(PROJECT_FIELD))
    .map((key) => key.slice(PROJECT_FIELD.length)),
}));

/** Approves (with the token's name, scope and projects) or denies a `baton login` code. */
export const answerCliLoginAction = formAction(answerForm, async (input, { db, principal }) => {
  const { decision } = await answerCliLogin(db, principal, input);
  return {
    message:
      decision === "approve"
        ? "Approved. `baton login` in your terminal receives its token within a few seconds and says whom it signed in."
        : "Denied. `baton login` in that terminal stops and says so; no token was made.",
  };
});
