import { createClient } from "@libsql/client";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { ROOT, tempDir } from "../support/server";

const folder = path.join(ROOT, "drizzle");

describe("migrate", () => {
  const tmp = tempDir();
  afterAll(() => tmp.remove());

  it("applies every migration once, even when two clients race on a new file", async () => {
    const url = `file:${tmp.dir}/race.db`;
    const a = createClient({ url, timeout: 5000 });
    const b = createClient({ url, timeout: 5000 });
    const [ra, rb] = await Promise.all([migrate(a, folder), migrate(b, folder)]);
    expect(ra.applied.length + rb.applied.length).toBe(ra.total);
    const rows = await a.execute("SELECT count(*) AS n FROM __drizzle_migrations");
    expect(Number(rows.rows[0]!.n)).toBe(ra.total);
    expect((await migrate(a, folder)).applied).toEqual([]);
    const mode = await a.execute("PRAGMA journal_mode");
    expect(String(mode.rows[0]!.journal_mode)).toBe("wal");
    a.close();
    b.close();
  });

  it("keeps the learnings full-text index in sync with inserts, updates and deletes (stemmed)", async () => {
    const db = createClient({ url: `file:${tmp.dir}/fts.db` });
    await migrate(db, folder);
    await db.execute("INSERT INTO users (id, name, email, email_verified, created_at, updated_at) VALUES ('u', 'U', 'u@x', 0, 0, 0)");
    await db.execute(
      "INSERT INTO learnings (id, user_id, kind, content, tags, created_at, updated_at) VALUES ('l1', 'u', 'pattern', 'Run migrations before tests', 'db', 0, 0)",
    );
    const match = async (q: string) =>
      (await db.execute({ sql: "SELECT l.id FROM learnings_fts f JOIN learnings l ON l.seq = f.rowid WHERE learnings_fts MATCH ?", args: [q] })).rows.map(
        (r) => r.id,
      );
    expect(await match("migrate")).toEqual(["l1"]);
    expect(await match("db")).toEqual(["l1"]);
    await db.execute("UPDATE learnings SET content = 'Prefer small commits' WHERE id = 'l1'");
    expect(await match("migrate")).toEqual([]);
    expect(await match("commit")).toEqual(["l1"]);
    await db.execute("DELETE FROM learnings WHERE id = 'l1'");
    expect(await match("commit")).toEqual([]);
    db.close();
  });
});
