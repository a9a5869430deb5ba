import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { ErrorCode } from "../../../lib/api/error-codes";
import { isExpectedError, toFailure } from "../../../lib/api/errors";
import { createApiToken } from "../../../lib/auth/api-tokens";
import { createUser } from "../../../lib/auth/create-user";
import { ConfigError, formatConfigError, getConfig, parseConfig, type Config } from "../../../lib/config";
import { migrate } from "../../../lib/db/migrate";
import { findUserByEmail } from "../../../lib/db/queries/users";
import { CliError, EXIT } from "../exit-codes";
import { backupDatabase, backupTarget } from "./backup-database";
import { openAdminDatabase } from "./open-admin-database";
import { restoreDatabase } from "./restore-database";

const exitOfCode: Partial<Record<ErrorCode, number>> = { conflict: EXIT.conflict, not_found: EXIT.notFound, validation_failed: EXIT.usage };

/**
 * Operator commands, run on the server machine against DATABASE_URL directly (not over HTTP): they
 * exist to bootstrap an install before anyone can sign in.
 */
export async function runAdmin(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "backup" || sub === "restore") return backupOrRestore(sub, rest);
  if (sub !== "create-user" && sub !== "create-token") {
    throw new CliError(`unknown admin command "${sub ?? ""}": use create-user, create-token, backup or restore.`, EXIT.usage);
  }
  const { client, db } = await openAdminDatabase(adminConfig(sub), { mustExist: false });
  try {
    // The server may never have started on this database: bring the schema up to date first.
    await migrate(client, migrationsFolder());
    switch (sub) {
      case "create-user": {
        const { values } = parse(rest, { email: { type: "string" }, password: { type: "string" }, name: { type: "string" }, admin: { type: "boolean" } });
        const email = required(values.email, "--email");
        const password = required(values.password, "--password");
        const user = await createUser(db, { email, password, name: values.name ?? email.split("@")[0]! }, { admin: values.admin });
        if (process.stdout.isTTY) process.stdout.write(`Created ${user.role === "admin" ? "admin" : "user"} ${user.email} (${user.id}).\n`);
        else process.stdout.write(JSON.stringify({ ok: true, user }) + "\n");
        return EXIT.ok;
      }
      case "create-token": {
        const { values } = parse(rest, {
          email: { type: "string" },
          name: { type: "string" },
          scope: { type: "string" },
          project: { type: "string", multiple: true },
        });
        const email = required(values.email, "--email");
        const scope = values.scope ?? "write";
        if (scope !== "read" && scope !== "write") throw new CliError(`--scope must be read or write, not "${scope}".`, EXIT.usage);
        const user = await findUserByEmail(db, { email });
        if (!user) throw new CliError(`no user with the email ${email}.`, EXIT.notFound);
        const { token } = await createApiToken(db, { userId: user.id, name: required(values.name, "--name"), scope, projects: values.project ?? [] });
        // The token alone, so scripts can do T=$(baton admin create-token …).
        process.stdout.write(token + "\n");
        return EXIT.ok;
      }
    }
  } catch (error) {
    // Refused input is worded as the API words it; anything else is a bug or an outage, shown whole.
    if (!isExpectedError(error)) throw error;
    const failure = toFailure(error);
    throw new CliError(failure.message, exitOfCode[failure.code] ?? EXIT.failure);
  } finally {
    client.close();
  }
}

/**
 * The configuration, a wrong variable a usage error naming it. backup and restore sign nothing: they
 * need no BATON_SECRET (which a remote database otherwise requires) and make no secret file beside an
 * embedded database (which may not exist: a backup of it is refused), so a stand-in fills its place.
 */
function adminConfig(sub: string): Config {
  try {
    if (sub !== "backup" && sub !== "restore") return getConfig();
    return parseConfig({ ...process.env, BATON_SECRET: "unused: backup and restore sign nothing" });
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(formatConfigError(error).replace(/^baton: /, ""), EXIT.usage);
    throw error;
  }
}

/**
 * `backup FILE` copies DATABASE_URL to FILE as it is (no migration first: a backup changes nothing;
 * FILE is checked before DATABASE_URL is opened, which must exist); `restore FILE` copies FILE into
 * an empty DATABASE_URL, then brings its schema up to date.
 */
async function backupOrRestore(sub: "backup" | "restore", args: string[]): Promise<number> {
  const { positionals } = parseFile(args);
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new CliError(`usage: baton admin ${sub} FILE`, EXIT.usage);
  const config = adminConfig(sub);
  const target = sub === "backup" ? backupTarget(file, config.databaseUrl) : undefined;
  const folder = migrationsFolder();
  const newest = newestMigration(folder);
  const { client } = await openAdminDatabase(config, { mustExist: sub === "backup" });
  try {
    if (target) {
      const backup = await backupDatabase(client, target, newest);
      if (process.stdout.isTTY) process.stdout.write(`Backed up to ${backup.file} (${backup.bytes} bytes, ${backup.tables} tables, integrity ok).\n`);
      else process.stdout.write(JSON.stringify({ ok: true, backup }) + "\n");
      return EXIT.ok;
    }
    const restore = await restoreDatabase(client, file, newest);
    const { applied } = await migrate(client, folder);
    if (process.stdout.isTTY) process.stdout.write(`Restored ${restore.file}: ${restore.rows} rows in ${restore.tables} tables${applied.length ? `, then ${applied.length} migrations` : ""}.\n`);
    else process.stdout.write(JSON.stringify({ ok: true, restore: { ...restore, migrated: applied } }) + "\n");
    return EXIT.ok;
  } finally {
    client.close();
  }
}

/** The journal time of this version's newest migration: a backup with a newer one is refused. */
function newestMigration(folder: string): number {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((e) => e.when));
}

function parseFile(args: string[]) {
  try {
    return parseArgs({ args, options: {}, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error), EXIT.usage);
  }
}

/** drizzle/ of the Baton checkout this CLI was built in (the bundle lives a few folders below it). */
function migrationsFolder(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "drizzle", "meta", "_journal.json"))) return path.join(dir, "drizzle");
    if (path.dirname(dir) === dir) throw new CliError("cannot find the drizzle/ migrations folder beside the CLI.", EXIT.failure);
  }
}

function parse<const O extends NonNullable<ParseArgsConfig["options"]>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false });
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error), EXIT.usage);
  }
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new CliError(`${flag} is required.`, EXIT.usage);
  return value;
}
