import type { Client } from "@libsql/client";
import path from "node:path";
import { CliError, EXIT } from "../exit-codes";
import { checkBackup, type BackupFacts } from "./check-backup";
import { copyDatabase } from "./copy-database";
import { openFileDatabase } from "./open-file-database";

export type RestoreResult = { file: string; rows: number } & BackupFacts;

/**
 * `baton admin restore FILE`: checks the backup first (integrity, a Baton schema this version knows),
 * then copies it into DATABASE_URL in one write transaction, so a failed restore leaves the target as
 * empty as it was. The target must be empty: a restore never merges into, or overwrites, live data.
 */
export async function restoreDatabase(target: Client, file: string, migrationsWhen: number): Promise<RestoreResult> {
  const source = path.resolve(file);
  const facts = await checkBackup(source, migrationsWhen);
  const backup = openFileDatabase(source);
  const read = await backup.transaction("read");
  const write = await target.transaction("write");
  try {
    // Checked inside the write transaction: nothing can be written between the check and the copy.
    const existing = await write.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'");
    if (existing.rows.length) {
      const some = existing.rows.slice(0, 3).map((r) => String(r.name)).join(", ");
      throw new CliError(`DATABASE_URL is not empty (${existing.rows.length} tables, e.g. ${some}): restore only into a new, empty database.`, EXIT.conflict);
    }
    const { rows } = await copyDatabase(read, write);
    await write.commit();
    return { file: source, rows, ...facts };
  } finally {
    read.close();
    write.close();
    backup.close();
  }
}
