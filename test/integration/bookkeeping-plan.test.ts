import { createClient, type Client } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { injectedUpdates } from "@/lib/db/queries/context";
import * as schema from "@/lib/db/schema";
import { ROOT, tempDir } from "../support/server";

/**
 * The served bookkeeping marks the learnings a context showed, once a second, on the event loop of an
 * embedded database: its statement must look the few ids up, never walk the scope's learnings (it did:
 * 260 ms a flush on a 100k store, the context's p99 there). Checked on the plan SQLite makes for it and
 * on what it writes.
 */
let client: Client;
let db: Db;
const tmp = tempDir("baton-bookkeeping-plan-");

beforeAll(async () => {
  client = createClient({ url: `file:${tmp.dir}/plan.db` });
  await migrate(client, `${ROOT}/drizzle`);
  db = drizzle(client, { schema }) as unknown as Db;
  await client.batch(
    [
      "INSERT INTO users (id, name, email, created_at, updated_at) VALUES ('u1', 'u1', 'u1@example.com', 0, 0), ('u2', 'u2', 'u2@example.com', 0, 0)",
      "INSERT INTO projects (id, slug, name, created_by, created_at, updated_at) VALUES ('p1', 'web', 'Web', 'u1', 0, 0)",
      "INSERT INTO learnings (id, user_id, project_id, kind, content, source, confirmed, tags, created_at, updated_at) VALUES ('a', 'u1', 'p1', 'pattern', 'a', 'test', 1, '', 1, 1), ('b', 'u1', NULL, 'pattern', 'b', 'test', 1, '', 1, 1), ('c', 'u2', NULL, 'pattern', 'c', 'test', 1, '', 1, 1)",
    ],
    "write",
  );
});

afterAll(() => {
  client?.close();
  tmp.remove();
});

describe("marking the learnings a context showed", () => {
  const group = { userId: "u1", projectId: "p1", ids: new Set(["a", "b", "c", "gone"]), at: new Date(5000) };

  it("looks each id up by its index instead of scanning the scope", async () => {
    const [update] = injectedUpdates(db, [group]);
    const { sql, params } = update!.toSQL();
    // On a connection of its own: an EXPLAIN leaves its statement open on the connection that ran it.
    const explain = createClient({ url: `file:${tmp.dir}/plan.db` });
    const plan = (await explain.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args: params as never })).rows.map((r) => String(r.detail));
    explain.close();
    expect(plan.join("\n")).toMatch(/SEARCH learnings USING (COVERING )?INDEX learnings_id_unique \(id=\?\)/);
    expect(plan.join("\n")).not.toMatch(/MULTI-INDEX OR|SCAN learnings/);
  });

  it("marks only the ids in the reader's scope, and leaves updated_at as it was", async () => {
    await db.batch([injectedUpdates(db, [group])[0]!]);
    const rows = (await client.execute("SELECT id, last_injected_at, updated_at FROM learnings ORDER BY id")).rows.map((r) => [r.id, r.last_injected_at, r.updated_at]);
    // c is another user's personal learning: never marked by u1's context.
    expect(rows).toEqual([["a", 5000, 1], ["b", 5000, 1], ["c", null, 1]]);
  });

  it("marks a learning once a UTC day: later the same day leaves the mark, the next day moves it", async () => {
    const day = 86_400_000;
    const mark = async (at: number) => db.batch([injectedUpdates(db, [{ ...group, ids: new Set(["a"]), at: new Date(at) }])[0]!]);
    const markOfA = async () => (await client.execute("SELECT last_injected_at FROM learnings WHERE id = 'a'")).rows[0]!.last_injected_at;
    await mark(day - 1);
    expect(await markOfA()).toBe(5000);
    await mark(day + 7);
    expect(await markOfA()).toBe(day + 7);
    await mark(2 * day - 1);
    expect(await markOfA()).toBe(day + 7);
  });
});
