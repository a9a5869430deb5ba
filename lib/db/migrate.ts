import { causeChain } from "./database-unavailable";
import type { Client } from "@libsql/client";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";

type JournalEntry = { idx: number; when: number; tag: string };

/** `latest`: the created_at of the newest migration in the folder (what a caught-up copy records). */
export type MigrationResult = { applied: string[]; total: number; latest: number };

type Migration = { tag: string; when: number; hash: string; statements: string[] };

/** How long a start waits, at most, for other instances to finish migrating the same database. */
const LOCK_WAIT_MS = 120_000;

/**
 * Applies drizzle-kit's migrations in drizzle/, recording them in drizzle's own __drizzle_migrations
 * table (same hash and created_at), so `drizzle-kit migrate` and this agree on what has run.
 *
 * Unlike drizzle's migrator, the check and the apply happen in one write transaction (BEGIN IMMEDIATE):
 * when several instances start at once on one database, the first applies and the others wait on the
 * lock, then find nothing left to do. The pending statements go in one batch, one round trip: a libSQL
 * server gives a transaction about 5 s while another waits for its lock (then ends it with
 * TRANSACTION_TIMEOUT), which a round trip per statement to a distant server overran. A wait for the
 * lock that times out (TRANSACTION_TIMEOUT, SQLITE_BUSY) is tried again, reading afresh what has been
 * applied, for up to `lockWaitMs`: another instance migrating, or another process (`baton admin
 * restore`) writing the file.
 */
export async function migrate(client: Client, folder: string, lockWaitMs = LOCK_WAIT_MS): Promise<MigrationResult> {
  const migrations = await readMigrations(folder);
  const deadline = Date.now() + lockWaitMs;
  for (let pause = 50; ; pause = Math.min(pause * 2, 1_000)) {
    try {
      // Persistent for the file once set; cannot run inside a transaction. SQLite answers it BUSY at
      // once, without waiting, while another process writes a file not yet in WAL mode (a restore).
      if (client.protocol === "file") await client.execute("PRAGMA journal_mode=WAL");
      const applied = await applyPending(client, migrations);
      return { applied, total: migrations.length, latest: migrations.at(-1)?.when ?? 0 };
    } catch (error) {
      if (!waitedForLock(error) || Date.now() + pause > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

async function readMigrations(folder: string): Promise<Migration[]> {
  const journal = JSON.parse(await readFile(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  return Promise.all(
    journal.entries.map(async (entry) => {
      const sql = await readFile(path.join(folder, `${entry.tag}.sql`), "utf8");
      return {
        tag: entry.tag,
        when: entry.when,
        hash: createHash("sha256").update(sql).digest("hex"),
        statements: sql
          .split("--> statement-breakpoint")
          .map((s) => s.trim())
          .filter(Boolean),
      };
    }),
  );
}

/** In one write transaction: what has been applied, then what has not, in one batch. The tags applied. */
async function applyPending(client: Client, migrations: Migration[]): Promise<string[]> {
  const tx = await client.transaction("write");
  try {
    await tx.execute(
      "CREATE TABLE IF NOT EXISTS __drizzle_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, hash text NOT NULL, created_at numeric)",
    );
    const last = await tx.execute("SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1");
    const lastWhen = Number(last.rows[0]?.created_at ?? 0);
    const pending = migrations.filter((m) => m.when > lastWhen);
    if (pending.length) {
      await tx.batch(
        pending.flatMap((m) => [...m.statements, { sql: "INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)", args: [m.hash, m.when] }]),
      );
    }
    await tx.commit();
    return pending.map((m) => m.tag);
  } finally {
    tx.close();
  }
}

/** A write lock another connection held for longer than this one's wait: sqld's TRANSACTION_TIMEOUT, SQLite's BUSY. */
function waitedForLock(error: unknown): boolean {
  return causeChain(error).some(
    ({ code, message }) => (typeof code === "string" && /^(TRANSACTION_TIMEOUT|SQLITE_BUSY)/.test(code)) || (typeof message === "string" && /TRANSACTION_TIMEOUT|database is locked/i.test(message)),
  );
}

/**
 * Waits until `client` reads the schema a migration wrote through another connection: a sqld replica
 * (DATABASE_URL at a replica, which forwards the migration's writes to its primary) answers reads from
 * its own copy, which may lag the primary by a moment after the first start on a new database.
 */
export async function awaitSchema(client: Client, latest: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = await client
      .execute("SELECT max(created_at) AS latest FROM __drizzle_migrations")
      .then((r) => Number(r.rows[0]?.latest ?? 0))
      .catch(() => 0);
    if (seen >= latest) return;
    if (Date.now() > deadline) throw new Error(`the database did not show the migrated schema within ${timeoutMs / 1000} s (is the replica following its primary?)`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
