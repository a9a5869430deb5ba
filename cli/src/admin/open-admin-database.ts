import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { Config } from "../../../lib/config";
import { filePath, openPrimary } from "../../../lib/db/client";
import { causeChain } from "../../../lib/db/database-unavailable";
import { withoutCredentials } from "../../../lib/secrets/without-credentials";
import { CliError, EXIT } from "../exit-codes";

type Handle = ReturnType<typeof openPrimary>;

/**
 * DATABASE_URL opened for an operator command and asked one query, so that a database that cannot be
 * opened (a server that does not answer, a folder, a path through a file) is one line that names it
 * and why, not a driver's bare "fetch failed". `mustExist`: a missing file is refused, not created
 * (a backup of a mistyped path would otherwise back up the empty database it just made).
 */
export async function openAdminDatabase(config: Config, options: { mustExist: boolean }): Promise<Handle> {
  const url = config.sync?.url ?? config.databaseUrl;
  const file = url.startsWith("file:") && !url.includes(":memory:") ? path.resolve(filePath(url)) : undefined;
  const problem = file && fileProblem(file);
  if (problem) throw cannotOpen(url, problem, EXIT.failure);
  if (file && options.mustExist && !existsSync(file)) throw cannotOpen(url, `there is no file ${file}`, EXIT.notFound);
  let handle: Handle | undefined;
  try {
    handle = openPrimary(config);
    await handle.client.execute("SELECT 1");
    return handle;
  } catch (error) {
    handle?.client.close();
    throw cannotOpen(url, causes(error), EXIT.failure);
  }
}

function cannotOpen(url: string, cause: string, exitCode: number): CliError {
  return new CliError(`cannot open the database DATABASE_URL (${withoutCredentials(url)}): ${withoutCredentials(cause)}`, exitCode);
}

/** What SQLite would only answer with "14" (cannot open): a folder where the file should be, or a file where a folder should be. */
function fileProblem(file: string): string | undefined {
  if (existsSync(file)) return statSync(file).isDirectory() ? `${file} is a folder, not a database file` : undefined;
  let folder = path.dirname(file);
  while (!existsSync(folder) && path.dirname(folder) !== folder) folder = path.dirname(folder);
  return statSync(folder).isDirectory() ? undefined : `${folder} is not a folder`;
}

/** An error and its causes, outermost first ("fetch failed: connect ECONNREFUSED 127.0.0.1:8080"). */
function causes(error: unknown): string {
  const messages = causeChain(error).map((e) => (typeof e.message === "string" ? e.message : ""));
  if (!messages.length) messages.push(String(error));
  return [...new Set(messages.filter(Boolean))].join(": ") || "unknown error";
}

