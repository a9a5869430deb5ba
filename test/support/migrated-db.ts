import type { InStatement } from "@libsql/client";
import { openDatabase, type Db } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { ROOT } from "./server";

/** A learning of u1 in p1, as a row written straight to the table. */
export const learningRow = (id: string, content: string, at = 0): string =>
  `INSERT INTO learnings (id, user_id, project_id, kind, content, source, confirmed, tags, created_at, updated_at) VALUES ('${id}', 'u1', 'p1', 'pattern', '${content}', 'test', 1, '', ${at}, ${at})`;

/**
 * A Baton database file opened in-process as the server opens one (lib/db/client.ts openDatabase:
 * statement cache, bookkeeping thread), migrated, with user u1 owning project p1 (its slug `slug`),
 * and `rows` written after.
 */
export async function migratedDatabase(url: string, options: { slug?: string; rows?: InStatement[] } = {}): Promise<{ db: Db; close: () => void }> {
  const { slug = "p1", rows = [] } = options;
  const handle = openDatabase(url);
  await migrate(handle.client, `${ROOT}/drizzle`);
  await handle.client.batch(
    [
      "INSERT INTO users (id, name, email, created_at, updated_at) VALUES ('u1', 'u1', 'u1@example.com', 0, 0)",
      { sql: "INSERT INTO projects (id, slug, name, created_by, created_at, updated_at) VALUES ('p1', ?, ?, 'u1', 0, 0)", args: [slug, slug] },
      "INSERT INTO project_members (project_id, user_id, role, created_at) VALUES ('p1', 'u1', 'owner', 0)",
      ...rows,
    ],
    "write",
  );
  return { db: handle.db, close: () => handle.client.close() };
}
