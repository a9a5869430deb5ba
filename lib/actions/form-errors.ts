import { isExpectedError, toFailure } from "../api/errors";
import { isDatabaseUnavailable } from "../db/database-unavailable";
import type { FormState } from "./form-state";

export const CHECK_FIELDS_MESSAGE = "Check the highlighted fields.";

/**
 * A refused input or request as form state: issues become one message per field (the first for each),
 * anything else the API's message. A database that cannot be reached is said so on the form (the API
 * answers it 503): what was typed stays, to be sent again. Any other error is rethrown, for Next to log
 * and answer with its error page, which reveals nothing in production (and lets redirect() through).
 */
export function formError(error: unknown): FormState<never> {
  if (!isExpectedError(error) && !isDatabaseUnavailable(error)) throw error;
  const failure = toFailure(error);
  if (!failure.issues) return { ok: false, message: failure.message };
  const fieldErrors: Record<string, string> = {};
  for (const issue of failure.issues) fieldErrors[String(issue.path[0] ?? "form")] ??= issue.message;
  return { ok: false, message: CHECK_FIELDS_MESSAGE, fieldErrors };
}
