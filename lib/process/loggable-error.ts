import { withoutCredentials } from "../secrets/without-credentials";

/**
 * An error as the server log may hold it. drizzle's "Failed query" errors carry the statement's
 * parameters in their message (`params: <session token>,…`): a learning's text, a handoff, a session
 * token, a token's hash. The log keeps the statement and the cause, never the values. A URL's
 * credentials (`http://user:password@host`, `?authToken=`, as DATABASE_URL may hold them) are left out
 * too (lib/secrets/without-credentials.ts).
 */
export function loggable(error: unknown): unknown {
  if (!(error instanceof Error)) return typeof error === "string" ? withoutSecrets(error) : error;
  const message = withoutSecrets(error.message);
  const cause = error.cause === undefined ? undefined : loggable(error.cause);
  if (message === error.message && cause === error.cause) return error;
  const safe = new Error(message, cause === undefined ? undefined : { cause });
  safe.name = error.name;
  const frames = error.stack?.indexOf("\n    at ") ?? -1;
  safe.stack = `${error.name}: ${message}${frames < 0 ? "" : error.stack!.slice(frames)}`;
  return safe;
}

/** A message without a failed query's parameters and without a URL's credentials. */
export function withoutSecrets(message: string): string {
  return withoutCredentials(message.replace(/\nparams: [\s\S]*$/, "\nparams: (not logged)"));
}
