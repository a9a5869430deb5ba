import type { Client } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { migratedBefore } from "../support/migration-step";
import { tempDir } from "../support/server";

/**
 * Who is an admin became explicit (issue 24): upgrading a server must never leave it without one, so
 * the migration makes the oldest account (the one first-run setup made) the admin, and nobody else.
 */

const tmp = tempDir("baton-user-roles-");
const opened: Client[] = [];

afterAll(() => {
  for (const db of opened) db.close();
  tmp.remove();
});

describe("the user roles migration", () => {
  it("makes the oldest account admin, whatever order the rows are in", async () => {
    const step = await migratedBefore(`${tmp.dir}`, "_user_roles");
    opened.push(step.db);
    await step.db.execute(
      "INSERT INTO users (id, name, email, created_at, updated_at) VALUES ('u2', 'bo', 'bo@example.com', 2000, 2000), ('u1', 'ana', 'ana@example.com', 1000, 1000), ('u3', 'cy', 'cy@example.com', 3000, 3000)",
    );
    await step.migrateRest();
    const rows = await step.db.execute("SELECT id, role, disabled_at FROM users ORDER BY id");
    expect(rows.rows.map((r) => [r.id, r.role, r.disabled_at])).toEqual([
      ["u1", "admin", null],
      ["u2", "member", null],
      ["u3", "member", null],
    ]);
  });
});
