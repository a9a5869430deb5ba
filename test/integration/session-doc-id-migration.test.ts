import type { Client } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { migratedBefore } from "../support/migration-step";
import { tempDir } from "../support/server";

/**
 * A session document's id became unique per project (primary key project_id, id): the table is rebuilt,
 * so a database written the old way must keep its documents and the triggers that move the context's ETag.
 */

const tmp = tempDir("baton-session-doc-id-");
let db: Client | undefined;

afterAll(() => {
  db?.close();
  tmp.remove();
});

const contextVersion = async (c: Client) => Number((await c.execute("SELECT value FROM app_meta WHERE key = 'context_version'")).rows[0]!.value);

describe("the session document id per project migration", () => {
  it("keeps every document, then takes one id in two projects; the context_version triggers still fire", async () => {
    const step = await migratedBefore(tmp.dir, "_session_doc_id_per_project");
    db = step.db;
    await db.execute("INSERT INTO projects (id, slug, name, created_at, updated_at) VALUES ('p1', 'one', 'One', 0, 0), ('p2', 'two', 'Two', 0, 0)");
    const doc = (id: string, project: string, status: string) =>
      db!.execute({
        sql: "INSERT INTO session_docs (id, project_id, markdown, priority, tags, specs, files, status, created_at, updated_at) VALUES (?, ?, ?, 1, '[]', '[\"a.md\"]', '[]', ?, 5, 6)",
        args: [id, project, `# ${id}`, status],
      });
    await doc("s1", "p1", "todo");
    await doc("s2", "p2", "doing");
    await expect(doc("s1", "p2", "todo")).rejects.toThrow(/UNIQUE|PRIMARY/);

    await step.migrateRest();
    const rows = await db.execute("SELECT id, project_id, markdown, priority, specs, status, created_at FROM session_docs ORDER BY id");
    expect(rows.rows.map((r) => ({ ...r }))).toEqual([
      { id: "s1", project_id: "p1", markdown: "# s1", priority: 1, specs: '["a.md"]', status: "todo", created_at: 5 },
      { id: "s2", project_id: "p2", markdown: "# s2", priority: 1, specs: '["a.md"]', status: "doing", created_at: 5 },
    ]);

    const before = await contextVersion(db);
    await doc("s1", "p2", "todo");
    await expect(doc("s1", "p2", "todo")).rejects.toThrow(/UNIQUE|PRIMARY/);
    expect(await contextVersion(db)).toBe(before + 1);
    await db.execute("UPDATE session_docs SET status = 'done' WHERE project_id = 'p2' AND id = 's2'");
    await db.execute("DELETE FROM session_docs WHERE project_id = 'p1' AND id = 's1'");
    expect(await contextVersion(db)).toBe(before + 3);
    const indexes = await db.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'session_docs' AND name = 'session_docs_queue_idx'");
    expect(indexes.rows).toHaveLength(1);
  });
});
