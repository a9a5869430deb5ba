import type { Client } from "@libsql/client";
import { closeSync, existsSync, openSync, realpathSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { filePath } from "../../../lib/db/client";
import { CliError, EXIT } from "../exit-codes";
import { copyDatabase, isVectorIndex } from "./copy-database";
import { bakedSchema, checkBackup, type BackupFacts } from "./check-backup";
import { openFileDatabase } from "./open-file-database";

export type BackupResult = { file: string; bytes: number; method: "vacuum-into" | "snapshot-copy" } & BackupFacts;

/**
 * Where `baton admin backup FILE` may write, checked before DATABASE_URL is opened: a new file, and
 * none of DATABASE_URL's own (the database, its -wal, -shm or -journal file, which SQLite would take
 * for part of the live database).
 */
export function backupTarget(file: string, databaseUrl: string): string {
  const target = path.resolve(file);
  if (databaseUrl.startsWith("file:") && !databaseUrl.includes(":memory:")) {
    const database = realFile(path.resolve(filePath(databaseUrl)));
    const suffix = ["", "-wal", "-shm", "-journal"].find((s) => realFile(target) === database + s);
    if (suffix !== undefined) {
      throw new CliError(`${target} is DATABASE_URL's own ${suffix ? `${suffix.slice(1)} file` : "database"}: name a new file for the backup.`, EXIT.usage);
    }
  }
  if (existsSync(target)) throw new CliError(`${target} exists already: name a new file for the backup.`, EXIT.conflict);
  return target;
}

/** A path with its folder's symbolic links resolved, so two names of one file compare equal. */
function realFile(file: string): string {
  try {
    return path.join(realpathSync(path.dirname(file)), path.basename(file));
  } catch {
    return file;
  }
}

/**
 * `baton admin backup FILE` (FILE checked by backupTarget): a consistent copy while the server keeps
 * writing. An embedded database is copied by SQLite itself (VACUUM INTO reads one snapshot and writes
 * a compact file), unless it has a libSQL vector index: VACUUM INTO writes the index's row of
 * libsql_vector_meta_shadow twice, a file integrity_check refuses. That one, and a libSQL server
 * (which offers no file to a client: its admin API is the operator's, and Turso has none), are read
 * inside one read transaction, a snapshot, into a new file whose indexes are built from the copied
 * rows. Written under a temporary name and renamed once it passes integrity_check: FILE is a good
 * backup or absent. Readable by its owner alone, from the first byte: it holds password and token
 * hashes and everything stored.
 */
export async function backupDatabase(source: Client, target: string, migrationsWhen: number): Promise<BackupResult> {
  const schema = await bakedSchema(source, migrationsWhen);
  if (schema === "not-baton") throw new CliError("DATABASE_URL is not a Baton database (it has no __drizzle_migrations): nothing to back up.", EXIT.failure);
  if (schema === "newer") {
    throw new CliError("DATABASE_URL was made by a newer Baton (its schema has migrations this version does not know): back it up with that version or a later one.", EXIT.failure);
  }
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  try {
    // SQLite writes into an empty file it is given and keeps its mode (its journal takes the same one).
    closeSync(openSync(partial, "wx", 0o600));
    const method = source.protocol === "file" && !(await hasVectorIndex(source)) ? "vacuum-into" : "snapshot-copy";
    if (method === "vacuum-into") await source.execute({ sql: "VACUUM INTO ?", args: [partial] });
    else await snapshotInto(source, partial);
    const facts = await checkBackup(partial, migrationsWhen, target);
    renameSync(partial, target);
    return { file: target, bytes: statSync(target).size, method, ...facts };
  } finally {
    rmSync(partial, { force: true });
  }
}

async function hasVectorIndex(source: Client): Promise<boolean> {
  const indexes = await source.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL");
  return indexes.rows.some((r) => isVectorIndex(String(r.sql)));
}

async function snapshotInto(source: Client, file: string): Promise<void> {
  const out = openFileDatabase(file);
  const read = await source.transaction("read");
  const write = await out.transaction("write");
  try {
    await copyDatabase(read, write);
    await write.commit();
  } finally {
    read.close();
    write.close();
    out.close();
  }
}
