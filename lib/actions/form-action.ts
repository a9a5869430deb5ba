import "server-only";
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { storableInput } from "../api/json-body";
import { requireUser } from "../auth/session";
import { formError } from "./form-errors";
import type { FormState } from "./form-state";
import { readForm } from "./read-form";

/** What an action's work hands back when it succeeds: a message to show, data to show once. */
export type ActionDone<T> = { message?: string; data?: T };
export type ActionUser = Awaited<ReturnType<typeof requireUser>>;

type Revalidate<I> = readonly string[] | ((input: I) => readonly string[]);

type FormActionOptions<I> = {
  /** The pages whose data the action changes: fixed paths, or paths named by the parsed input. */
  revalidate?: Revalidate<I>;
  /** Fields echoed back as typed when the action is refused, so nobody types them twice. */
  echo?: readonly string[];
};

/** Never sent back to the page, whatever an action asks to echo. */
const SECRET_FIELDS = new Set(["password", "confirm"]);

/**
 * The one skeleton of every form action of a signed-in user (useActionState's signature): the user
 * (or a redirect to sign in), the form read once and parsed with `schema`, then `work`, then the pages
 * revalidated; a refused input or request becomes form state (see formError), with the echoed fields.
 */
export function formAction<S extends z.ZodType, T = undefined>(
  schema: S,
  work: (input: z.output<S>, user: ActionUser) => Promise<ActionDone<T>>,
  options: FormActionOptions<z.output<S>> = {},
): (prev: FormState<T>, form: FormData) => Promise<FormState<T>> {
  return async (_prev, form) => {
    let fields: Record<string, string> = {};
    // The form is read and the user looked up inside settle: a request that is not a form, or a database
    // down, is then a message on the form, not an error page.
    return settle(
      async () => {
        fields = readForm(form);
        const user = await requireUser();
        return parseAndRun(schema, fields, (input) => work(input, user), options.revalidate);
      },
      () => echoed(fields, options.echo),
    );
  };
}

/** The same for the forms used before anyone is signed in (sign-in, first-run setup). */
export function publicFormAction<S extends z.ZodType, T = undefined>(
  schema: S,
  work: (input: z.output<S>) => Promise<ActionDone<T>>,
  options: Pick<FormActionOptions<z.output<S>>, "echo"> = {},
): (prev: FormState<T>, form: FormData) => Promise<FormState<T>> {
  return async (_prev, form) => {
    let fields: Record<string, string> = {};
    return settle(
      () => parseAndRun(schema, (fields = readForm(form)), work, undefined),
      () => echoed(fields, options.echo),
    );
  };
}

/** The same for actions a page's script calls with an object rather than a form. */
export function inputAction<S extends z.ZodType, T = undefined>(
  schema: S,
  work: (input: z.output<S>, user: ActionUser) => Promise<ActionDone<T>>,
  options: Pick<FormActionOptions<z.output<S>>, "revalidate"> = {},
): (input: unknown) => Promise<FormState<T>> {
  return async (input) => {
    return settle(async () => {
      const user = await requireUser();
      return parseAndRun(schema, input, (parsed) => work(parsed, user), options.revalidate);
    }, () => undefined);
  };
}

async function parseAndRun<S extends z.ZodType, T>(
  schema: S,
  raw: unknown,
  work: (input: z.output<S>) => Promise<ActionDone<T>>,
  revalidate: Revalidate<z.output<S>> | undefined,
): Promise<FormState<T>> {
  // Text as the API stores it: NUL refused, half an emoji made U+FFFD (lib/api/json-body.ts).
  const input = schema.parse(storableInput(raw));
  const done = await work(input);
  const paths = typeof revalidate === "function" ? revalidate(input) : (revalidate ?? []);
  for (const path of paths) revalidatePath(path);
  return { ok: true, ...done };
}

/** `values`: the fields to echo, asked for once the run has failed (what it read of the form by then). */
async function settle<T>(run: () => Promise<FormState<T>>, values: () => Record<string, string> | undefined): Promise<FormState<T>> {
  try {
    return await run();
  } catch (error) {
    const refused = formError(error);
    const echo = values();
    return echo ? { ...refused, values: echo } : refused;
  }
}

function echoed(fields: Record<string, string>, names: readonly string[] | undefined): Record<string, string> | undefined {
  if (!names) return undefined;
  return Object.fromEntries(names.filter((name) => !SECRET_FIELDS.has(name)).map((name) => [name, fields[name] ?? ""]));
}
