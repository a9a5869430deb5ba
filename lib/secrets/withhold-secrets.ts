import { z } from "zod";
import { ApiError, publicIssues } from "../api/errors";
import { SecretRedactor } from "./redact-secrets";

/**
 * The server's copy of the withholding the CLI applies at home: text that arrives through REST, MCP or
 * the dashboard (an agent proposing a learning, a handoff a tool writes, task memory, a session
 * document) may carry a credential no hook ever saw. Each domain entry point passes its parsed input
 * through here once (parseWithheld), so every way in shares it. Text already redacted by the CLI comes
 * through as it is.
 */
export function withholdSecrets<T>(input: T): T {
  return new SecretRedactor().deep(input);
}

/**
 * The input parsed by `schema`, its secrets withheld, and parsed again: withholding can lengthen a text
 * (`token=ab12` becomes `token=[withheld: secret]`), and a text the schema's limits no longer hold is
 * refused here, before anything is stored, never stored longer than the limits every answer is checked
 * against; `fit` may first bring back within them what can be cut (an excerpt). The schema must take its
 * own output (no transform that changes a value's type).
 */
export function parseWithheld<S extends z.ZodType>(schema: S, input: unknown, fit: (withheld: z.output<S>) => z.output<S> = (w) => w): z.output<S> {
  const withheld = fit(withholdSecrets(schema.parse(input)));
  const again = schema.safeParse(withheld);
  if (again.success) return again.data;
  const first = again.error.issues[0];
  const where = first?.path.length ? ` at ${first.path.join(".")}` : "";
  throw new ApiError("validation_failed", `Invalid input${where}: too long once the secrets in it are withheld (${first?.message ?? "see issues"}). Send it without the secrets, or shorter.`, publicIssues(again.error));
}
