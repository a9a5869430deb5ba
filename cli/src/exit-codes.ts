/** The CLI's exit codes, documented in the README. */
export const EXIT = {
  ok: 0,
  /** Something failed: the database or server could not be reached, an unexpected error. */
  failure: 1,
  /** The command line was wrong: unknown command, missing or invalid option. */
  usage: 2,
  /** What was asked to be created exists already. */
  conflict: 3,
  /** What the command names does not exist. */
  notFound: 4,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
