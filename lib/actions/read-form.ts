import { ApiError } from "../api/errors";

/**
 * A submitted form as a plain object for a zod schema: each named text field once (the first value,
 * as FormData.get gives it); files and absent fields are left out, so an unchecked checkbox is undefined.
 * Anything but a form (a hand-made request to the action's id with a JSON body: `[null]`, `[{}]`) is a
 * bad request: the caller runs this where a refusal becomes form state, never a 500.
 */
export function readForm(form: unknown): Record<string, string> {
  if (!(form instanceof FormData)) throw new ApiError("bad_request", "This action takes a submitted form.");
  const fields: Record<string, string> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === "string" && !Object.hasOwn(fields, name)) fields[name] = value;
  }
  return fields;
}
