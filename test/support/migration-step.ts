import { createClient, type Client } from "@libsql/client";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { migrate } from "@/lib/db/migrate";
import { ROOT } from "./server";

/**
 * A database in `dir` migrated up to the migration whose tag ends with `tagSuffix` (left out), as a
 * database written before it would be; `migrateRest` then applies it and everything after. For tests of
 * a migration's data backfill: insert rows the old way between the two.
 */
export async function migratedBefore(dir: string, tagSuffix: string): Promise<{ db: Client; migrateRest: () => Promise<void> }> {
  const folder = path.join(dir, "drizzle");
  cpSync(path.join(ROOT, "drizzle"), folder, { recursive: true });
  const journalFile = path.join(folder, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith(tagSuffix));
  if (at < 0) throw new Error(`no migration tagged …${tagSuffix}`);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  const db = createClient({ url: `file:${dir}/old.db` });
  await migrate(db, folder);
  return {
    db,
    migrateRest: async () => {
      writeFileSync(journalFile, JSON.stringify(journal));
      await migrate(db, folder);
    },
  };
}
