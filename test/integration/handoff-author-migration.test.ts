import { createClient, type Client } from "@libsql/client";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { ROOT, tempDir } from "../support/server";

/**
 * A handoff's author was whatever name the client sent (issue 21: bo could sign as "Alice"). Handoffs
 * stored that way get their writer's name as the author, the name they were signed with kept beside it.
 */

const tmp = tempDir("baton-handoff-author-");
let db: Client | undefined;

afterAll(() => {
  db?.close();
  tmp.remove();
});

describe("the handoff author migration", () => {
  it("makes the writing user the author and keeps a different signature as signed_as", async () => {
    const folder = path.join(tmp.dir, "drizzle");
    cpSync(path.join(ROOT, "drizzle"), folder, { recursive: true });
    const journalFile = path.join(folder, "meta/_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag.endsWith("_session_projects_and_handoff_author"));
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
    db = createClient({ url: `file:${tmp.dir}/old.db` });
    await migrate(db, folder);
    await db.execute("INSERT INTO users (id, name, email, created_at, updated_at) VALUES ('u1', 'bo', 'bo@example.com', 0, 0), ('u2', 'ana', 'ana@example.com', 0, 0)");
    await db.execute("INSERT INTO projects (id, slug, name, created_at, updated_at) VALUES ('p1', 'web', 'web', 0, 0)");
    await db.execute(
      "INSERT INTO handoffs (id, project_id, user_id, author, markdown, created_at) VALUES ('forged', 'p1', 'u1', 'Alice', 'x', 0), ('own', 'p1', 'u2', 'ana', 'y', 0), ('orphan', 'p1', NULL, 'gone', 'z', 0)",
    );
    writeFileSync(journalFile, JSON.stringify(journal));
    await migrate(db, folder);
    const rows = await db.execute("SELECT id, author, signed_as FROM handoffs ORDER BY id");
    expect(rows.rows.map((r) => [r.id, r.author, r.signed_as])).toEqual([
      ["forged", "bo", "Alice"],
      ["orphan", "gone", null],
      ["own", "ana", null],
    ]);
  });
});
