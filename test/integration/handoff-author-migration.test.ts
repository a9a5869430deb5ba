import type { Client } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { migratedBefore } from "../support/migration-step";
import { tempDir } from "../support/server";

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
    const step = await migratedBefore(tmp.dir, "_session_projects_and_handoff_author");
    db = step.db;
    await db.execute("INSERT INTO users (id, name, email, created_at, updated_at) VALUES ('u1', 'bo', 'bo@example.com', 0, 0), ('u2', 'ana', 'ana@example.com', 0, 0)");
    await db.execute("INSERT INTO projects (id, slug, name, created_at, updated_at) VALUES ('p1', 'web', 'web', 0, 0)");
    await db.execute(
      "INSERT INTO handoffs (id, project_id, user_id, author, markdown, created_at) VALUES ('forged', 'p1', 'u1', 'Alice', 'x', 0), ('own', 'p1', 'u2', 'ana', 'y', 0), ('orphan', 'p1', NULL, 'gone', 'z', 0)",
    );
    await step.migrateRest();
    const rows = await db.execute("SELECT id, author, signed_as FROM handoffs ORDER BY id");
    expect(rows.rows.map((r) => [r.id, r.author, r.signed_as])).toEqual([
      ["forged", "bo", "Alice"],
      ["orphan", "gone", null],
      ["own", "ana", null],
    ]);
  });
});
