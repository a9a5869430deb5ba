/** What a form's server action hands back to the page: a message, field errors, or data to show once. */
export type FormState<T = undefined> = {
  ok: boolean;
  message?: string;
  fieldErrors?: Record<string, string>;
  data?: T;
};

export const initialFormState: FormState<never> = { ok: false };
