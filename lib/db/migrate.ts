import type { Client } from "@libsql/client";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";

type JournalEntry = { idx: number; when: number; tag: string };

/** `latest`: the created_at of the newest migration in the folder (what a caught-up copy records). */
export type MigrationResult = { applied: string[]; total: number; latest: number };

/**
 * Applies drizzle-kit's migrations in drizzle/, recording them in drizzle's own __drizzle_migrations
 * table (same hash and created_at), so `drizzle-kit migrate` and this agree on what has run.
 *
 * Unlike drizzle's migrator, the check and the apply happen in one write transaction (BEGIN IMMEDIATE):
 * when several instances start at once on one database, the first applies and the others wait on the
 * lock, then find nothing left to do.
 */
export async function migrate(client: Client, folder: string): Promise<MigrationResult> {
  const journal = JSON.parse(await readFile(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  const migrations = await Promise.all(
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

  if (client.protocol === "file") {
    // Persistent for the file once set; cannot run inside a transaction.
    await client.execute("PRAGMA journal_mode=WAL");
  }

  const tx = await client.transaction("write");
  try {
    await tx.execute(
      "CREATE TABLE IF NOT EXISTS __drizzle_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, hash text NOT NULL, created_at numeric)",
    );
    const last = await tx.execute("SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1");
    const lastWhen = Number(last.rows[0]?.created_at ?? 0);
    const applied: string[] = [];
    for (const m of migrations) {
      if (m.when <= lastWhen) continue;
      for (const statement of m.statements) await tx.execute(statement);
      await tx.execute({ sql: "INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)", args: [m.hash, m.when] });
      applied.push(m.tag);
    }
    await tx.commit();
    return { applied, total: migrations.length, latest: migrations.at(-1)?.when ?? 0 };
  } finally {
    tx.close();
  }
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
