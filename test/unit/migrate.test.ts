import { createClient } from "@libsql/client";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { awaitSchema, migrate } from "@/lib/db/migrate";
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

  it("waits until a second connection reads the schema another one migrated, and says so when it never does", async () => {
    const url = `file:${tmp.dir}/lagging.db`;
    const writer = createClient({ url, timeout: 5000 });
    const reader = createClient({ url, timeout: 5000 });
    let migrated = false;
    const migration = new Promise<number>((resolve) =>
      setTimeout(() => void migrate(writer, folder).then((r) => ((migrated = true), resolve(r.latest))), 300),
    );
    const latest = Number(JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")).entries.at(-1).when);
    await awaitSchema(reader, latest, 10_000);
    expect(migrated).toBe(true);
    expect(await migration).toBe(latest);
    const users = await reader.execute("SELECT count(*) AS n FROM users");
    expect(Number(users.rows[0]!.n)).toBe(0);

    const empty = createClient({ url: `file:${tmp.dir}/never.db` });
    await expect(awaitSchema(empty, latest, 300)).rejects.toThrow(/did not show the migrated schema/);
    for (const c of [writer, reader, empty]) c.close();
  });
});
