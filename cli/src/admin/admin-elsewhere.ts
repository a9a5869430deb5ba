import { CliError, EXIT } from "../exit-codes";

/**
 * `baton admin` in the one-file CLI a server hands out (cli/build.mjs puts this in place of
 * run-admin): admin commands open the server's database, so they run in the server's own checkout.
 */
export async function runAdmin(): Promise<number> {
  throw new CliError(
    "admin commands act on the server's database: run them in the Baton server's own checkout (`node cli/bin/baton.mjs admin …` there, where DATABASE_URL points).",
    EXIT.usage,
  );
}
