import { createClient, type Client, type InStatement } from "@libsql/client";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/libsql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Database from "libsql";
import { isDatabaseUnavailable } from "@/lib/db/database-unavailable";
import { statementCacheStats, withStatementCache } from "@/lib/db/statement-cache";
import * as schema from "@/lib/db/schema";
import { migrate } from "@/lib/db/migrate";
import { ROOT, tempDir } from "../support/server";

/**
 * Reads on a database file from kept prepared statements (lib/db/statement-cache.ts) answer exactly as
 * the libSQL client does, on a real file: the same rows, columns and errors; writes still reach the
 * file through the client. Compared against a plain client on the same file.
 */
const tmp = tempDir("baton-statement-cache-");
const file = `${tmp.dir}/cache.db`;
let plain: Client;
let cached: Client;

/** A result set as plain data: what every reader of one sees. */
const seen = (r: { columns: string[]; columnTypes: string[]; rows: unknown[] }) => ({
  columns: r.columns,
  columnTypes: r.columnTypes,
  rows: r.rows.map((row) => ({ named: { ...(row as object) }, indexed: Array.from(row as ArrayLike<unknown>), json: JSON.stringify(row) })),
});

beforeAll(async () => {
  plain = createClient({ url: `file:${file}` });
  await migrate(plain, `${ROOT}/drizzle`);
  await plain.batch(
    [
      "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, big INTEGER, data BLOB, score REAL, flag INTEGER)",
      { sql: "INSERT INTO t VALUES (1, 'a', 5, x'0102', 1.5, 1), (2, 'b', NULL, NULL, NULL, 0), (3, 'c', ?, x'', -2.25, 1)", args: [2 ** 40] },
      "INSERT INTO users (id, name, email, created_at, updated_at) VALUES ('u1', 'Ann', 'ann@example.com', 1, 2)",
      "INSERT INTO projects (id, slug, name, created_by, created_at, updated_at) VALUES ('p1', 'web', 'Web', 'u1', 3, 4)",
    ],
    "write",
  );
  cached = withStatementCache(createClient({ url: `file:${file}` }), file, 5000);
});

afterAll(() => {
  plain?.close();
  tmp.remove();
});

describe("reads from kept statements", () => {
  const reads: InStatement[] = [
    "SELECT * FROM t ORDER BY id",
    { sql: "SELECT id, name FROM t WHERE id > ? AND flag = ? ORDER BY id", args: [1, true] },
    { sql: "SELECT name FROM t WHERE id = :id", args: { id: 3 } },
    { sql: "SELECT name FROM t WHERE id = $id", args: { $id: 1 } },
    // Two columns of one name: the first is the name's value, both are indexed.
    "SELECT t.id, u.id, t.name AS length, 7 AS \"0\" FROM t JOIN users u ORDER BY t.id",
    "WITH x(n) AS (VALUES (1), (2)) SELECT n, n * 2 AS twice FROM x",
    { sql: "SELECT ? AS d, ? AS b", args: [new Date(1234), new Uint8Array([9]).buffer] },
    "SELECT id FROM t WHERE 0",
  ];

  it("answers as the client does, statement by statement, first time and from the cache", async () => {
    for (let round = 0; round < 2; round++)
      for (const read of reads) expect(seen(await cached.execute(read))).toEqual(seen(await plain.execute(read)));
    // Each read prepared once, then answered from its kept statement; none sent to the client.
    expect(statementCacheStats(cached)).toEqual({ kept: reads.length, reused: reads.length, toClient: 0 });
  });

  it("answers a batch as the client does", async () => {
    const [a, b] = [await cached.batch(reads, "deferred"), await plain.batch(reads, "deferred")];
    expect(a.map(seen)).toEqual(b.map(seen));
    expect((await cached.batch(reads)).map(seen)).toEqual(b.map(seen));
  });

  it("answers drizzle's queries as the client does: selects, joins with columns of one name, raw rows", async () => {
    const [fast, slow] = [drizzle(cached, { schema }), drizzle(plain, { schema })];
    const queries = (db: typeof fast) =>
      db.batch([
        db.select().from(schema.users),
        db.select({ user: schema.users.id, project: schema.projects.id, at: schema.projects.createdAt }).from(schema.users).innerJoin(schema.projects, eq(schema.projects.createdBy, schema.users.id)),
        db.all(sql`select id, name, big from t order by id`),
        db.get(sql`select count(*) as n from t`),
      ]);
    expect(await queries(fast)).toEqual(await queries(slow));
  });

  it("refuses what the client refuses, in the client's words", async () => {
    for (const bad of ["SELECT nope FROM t", "SELECT 9007199254740993", { sql: "SELECT ?", args: [Number.NaN] }] as InStatement[]) {
      const [a, b] = await Promise.all([cached.execute(bad).catch((e: Error) => e), plain.execute(bad).catch((e: Error) => e)]);
      expect(a).toBeInstanceOf(Error);
      expect(String(a)).toBe(String(b));
    }
  });

  it("sends writes to the client: a WITH that inserts, a batch with a write, a write-mode batch", async () => {
    await cached.execute({ sql: "WITH v(n) AS (VALUES (?)) INSERT INTO t (id, name) SELECT n, 'w' FROM v", args: [10] });
    await cached.batch(["SELECT 1", "INSERT INTO t (id, name) VALUES (11, 'x')"]);
    await cached.batch([{ sql: "SELECT id FROM t WHERE id = ?", args: [11] }], "write");
    const sent = statementCacheStats(cached)!.toClient;
    // Remembered as a write: the second time goes straight to the client, and writes again.
    await cached.execute({ sql: "WITH v(n) AS (VALUES (?)) INSERT INTO t (id, name) SELECT n, 'w' FROM v", args: [12] });
    const ids = (await plain.execute("SELECT id FROM t WHERE id >= 10 ORDER BY id")).rows.map((r) => r.id);
    expect(ids).toEqual([10, 11, 12]);
    expect(statementCacheStats(cached)!.toClient).toBe(sent + 1);
  });

  it("answers with the columns of the schema now, after another connection changed it", async () => {
    await cached.execute("SELECT * FROM t ORDER BY id");
    await plain.execute("ALTER TABLE t ADD COLUMN extra TEXT DEFAULT 'e'");
    expect(seen(await cached.execute("SELECT * FROM t ORDER BY id"))).toEqual(seen(await plain.execute("SELECT * FROM t ORDER BY id")));
  });

  it("names columns whatever their name, as the client does", async () => {
    const read = "SELECT 1 AS constructor, 2 AS toString, 3 AS __proto__, 4 AS hasOwnProperty";
    expect(seen(await cached.execute(read))).toEqual(seen(await plain.execute(read)));
  });

  it("reads what the client wrote a moment before", async () => {
    const before = (await cached.execute("SELECT count(*) AS n FROM t")).rows[0]!.n as number;
    await cached.execute("INSERT INTO t (id, name) VALUES (20, 'late')");
    expect((await cached.execute("SELECT count(*) AS n FROM t")).rows[0]!.n).toBe(before + 1);
    expect((await cached.execute({ sql: "SELECT name FROM t WHERE id = ?", args: [20] })).rows[0]!.name).toBe("late");
  });
});

describe("a file another process holds locked", () => {
  it("fails the read once, as the client does, without the client waiting the busy timeout again; the API reads it as unavailable", async () => {
    const locked = `${tmp.dir}/locked.db`;
    const setup = new Database(locked);
    setup.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1)");
    setup.close();
    // An exclusive lock in WAL mode keeps every other connection from reading until it ends.
    const holder = new Database(locked);
    holder.exec("PRAGMA locking_mode = EXCLUSIVE; BEGIN IMMEDIATE; INSERT INTO t VALUES (2)");
    const client = withStatementCache(createClient({ url: `file:${locked}` }), locked, 100);
    try {
      const failed = await client.execute("SELECT x FROM t").then(() => null, (error: unknown) => error);
      expect(failed).toMatchObject({ code: "SQLITE_BUSY" });
      expect(isDatabaseUnavailable(failed)).toBe(true);
      expect(statementCacheStats(client)!.toClient).toBe(0);
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
    expect((await client.execute("SELECT x FROM t")).rows.map((r) => r.x)).toEqual([1]);
    client.close();
  });
});

describe("a closed client", () => {
  it("reads nothing more: the client says it is closed", async () => {
    await cached.execute("SELECT 1");
    cached.close();
    await expect(cached.execute("SELECT 1")).rejects.toThrow(/closed/i);
  });
});
