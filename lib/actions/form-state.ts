/** What a form's server action hands back to the page: a message, field errors, or data to show once. */
export type FormState<T = undefined> = {
  ok: boolean;
  message?: string;
  fieldErrors?: Record<string, string>;
  data?: T;
  /** What the user typed, echoed back so a refused form does not make them type it again (never passwords). */
  values?: Record<string, string>;
};

export const initialFormState: FormState<never> = { ok: false };

/** What a form that makes a secret link answers: the link, shown once (components/ui/link-once-form.tsx). */
export type LinkShown = { link: string };
