import { existsSync } from "node:fs";
import { CliError, EXIT } from "../exit-codes";
import { openFileDatabase } from "./open-file-database";

export type BackupFacts = { tables: number; migrations: number };

/**
 * What makes FILE a Baton backup this version can restore: SQLite's integrity_check says ok, it has
 * drizzle's __drizzle_migrations, and its newest migration is not newer than this version's newest
 * (`migrationsWhen`, drizzle's journal time), since a newer schema would be read wrongly here.
 */
export async function checkBackup(file: string, migrationsWhen: number): Promise<BackupFacts> {
  if (!existsSync(file)) throw new CliError(`no backup file ${file}.`, EXIT.notFound);
  const db = openFileDatabase(file);
  try {
    const integrity = await db.execute("PRAGMA integrity_check").catch((error: Error) => {
      throw new CliError(`${file} is not a database: ${error.message}`, EXIT.failure);
    });
    const verdict = integrity.rows.map((r) => String(r[0])).join("; ");
    if (verdict !== "ok") throw new CliError(`${file} fails SQLite's integrity check: ${verdict.slice(0, 500)}`, EXIT.failure);
    const tables = await db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
    if (!tables.rows.some((r) => r.name === "__drizzle_migrations")) throw new CliError(`${file} is not a Baton database (it has no __drizzle_migrations).`, EXIT.failure);
    const applied = await db.execute("SELECT count(*) AS n, max(created_at) AS newest FROM __drizzle_migrations");
    const { n, newest } = applied.rows[0]!;
    if (Number(newest ?? 0) > migrationsWhen) {
      throw new CliError(`${file} was made by a newer Baton (its schema has migrations this version does not know): restore it with that version or a later one.`, EXIT.failure);
    }
    return { tables: tables.rows.length, migrations: Number(n) };
  } finally {
    db.close();
  }
}
