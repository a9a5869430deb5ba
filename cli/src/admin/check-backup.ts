import type { Client } from "@libsql/client";
import { existsSync } from "node:fs";
import { CliError, EXIT } from "../exit-codes";
import { openFileDatabase } from "./open-file-database";

export type BackupFacts = { tables: number; migrations: number };

/**
 * What makes a database Baton's, of a schema this version can read: it has drizzle's
 * __drizzle_migrations, and its newest migration is not newer than this version's newest
 * (`migrationsWhen`, drizzle's journal time). The caller words a refusal for what it was checking.
 */
export async function bakedSchema(db: Client, migrationsWhen: number): Promise<BackupFacts | "not-baton" | "newer"> {
  const tables = await db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
  if (!tables.rows.some((r) => r.name === "__drizzle_migrations")) return "not-baton";
  const applied = await db.execute("SELECT count(*) AS n, max(created_at) AS newest FROM __drizzle_migrations");
  const { n, newest } = applied.rows[0]!;
  if (Number(newest ?? 0) > migrationsWhen) return "newer";
  return { tables: tables.rows.length, migrations: Number(n) };
}

/**
 * What makes `file` a Baton backup this version can restore: SQLite's integrity_check says ok, and
 * bakedSchema. Refusals name `shown` (the backup being written names FILE, not its temporary name).
 */
export async function checkBackup(file: string, migrationsWhen: number, shown = file): Promise<BackupFacts> {
  if (!existsSync(file)) throw new CliError(`no backup file ${shown}.`, EXIT.notFound);
  const db = openFileDatabase(file);
  try {
    const integrity = await db.execute("PRAGMA integrity_check").catch((error: Error) => {
      throw new CliError(`${shown} is not a database: ${error.message}`, EXIT.failure);
    });
    const verdict = integrity.rows.map((r) => String(r[0])).join("; ");
    if (verdict !== "ok") throw new CliError(`${shown} fails SQLite's integrity check: ${verdict.slice(0, 500)}`, EXIT.failure);
    const schema = await bakedSchema(db, migrationsWhen);
    if (schema === "not-baton") throw new CliError(`${shown} is not a Baton database (it has no __drizzle_migrations).`, EXIT.failure);
    if (schema === "newer") {
      throw new CliError(`${shown} was made by a newer Baton (its schema has migrations this version does not know): restore it with that version or a later one.`, EXIT.failure);
    }
    return schema;
  } finally {
    db.close();
  }
}
