/**
 * A submitted form as a plain object for a zod schema: each named text field once (the first value,
 * as FormData.get gives it); files and absent fields are left out, so an unchecked checkbox is undefined.
 */
export function readForm(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === "string" && !Object.hasOwn(fields, name)) fields[name] = value;
  }
  return fields;
}
