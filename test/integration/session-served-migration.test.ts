import type { Client } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { migratedBefore } from "../support/migration-step";
import { tempDir } from "../support/server";

/**
 * session_served went from a row per learning a session was given to a row per time it was given some
 * (their ids a JSON array): a database written the old way keeps what each session was given.
 */

const tmp = tempDir("baton-session-served-");
let db: Client | undefined;

afterAll(() => {
  db?.close();
  tmp.remove();
});

describe("the session_served lists migration", () => {
  it("turns a session's rows into its lists, one per time it was served", async () => {
    const step = await migratedBefore(tmp.dir, "_session_served_lists");
    db = step.db;
    await db.execute("INSERT INTO users (id, name, email, created_at, updated_at) VALUES ('u1', 'u', 'u@example.com', 0, 0)");
    await db.execute(
      "INSERT INTO session_served (user_id, session_id, learning_id, served_at) VALUES ('u1', 's1', 'a', 10), ('u1', 's1', 'b', 10), ('u1', 's1', 'c', 20), ('u1', 's2', 'a', 10)",
    );
    await step.migrateRest();
    const rows = await db.execute("SELECT session_id, served_at, learning_ids FROM session_served ORDER BY session_id, served_at");
    expect(rows.rows.map((r) => [r.session_id, Number(r.served_at), JSON.parse(String(r.learning_ids)).sort()])).toEqual([
      ["s1", 10, ["a", "b"]],
      ["s1", 20, ["c"]],
      ["s2", 10, ["a"]],
    ]);
  });
});
