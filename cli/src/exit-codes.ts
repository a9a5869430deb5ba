/** The CLI's exit codes, documented in the README. Hooks never use them: they always exit 0. */
export const EXIT = {
  ok: 0,
  /** Something failed: the database could not be opened, the server answered with an error, an unexpected error. */
  failure: 1,
  /** The command line was wrong: unknown command, missing or invalid option. */
  usage: 2,
  /** What was asked to be created or claimed exists already or is held by someone else (HTTP 409). */
  conflict: 3,
  /** What the command names does not exist (HTTP 404). */
  notFound: 4,
  /** The Baton server could not be reached, or did not answer in time. */
  unreachable: 5,
  /** The server refused the token (HTTP 401) or the token may not do this (HTTP 403). */
  unauthorized: 6,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
