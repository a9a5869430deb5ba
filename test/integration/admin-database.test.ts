import { createClient } from "@libsql/client";
import { existsSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli";
import { freePort, tempDir } from "../support/server";
import { startSqld } from "../support/sqld";

// What `baton admin` says when DATABASE_URL cannot be opened, and what `backup` refuses before it
// writes anything: a missing source, a target that is one of the database's own files, a source
// that is not a Baton database of this version's schema. Backup and restore need no BATON_SECRET.

const tmp = tempDir("baton-admin-db-");
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  tmp.remove();
});
const admin = (databaseUrl: string, args: string[], env: Record<string, string> = {}) => runCli(["admin", ...args], { env: { DATABASE_URL: databaseUrl, ...env } });
const SECRET = { BATON_SECRET: "admin-database-test-secret-long-enough-0" };

describe("a DATABASE_URL that cannot be opened is one line naming it and why", () => {
  it.each<[string, () => Promise<string>, RegExp]>([
    ["a libSQL server that does not answer", async () => `http://127.0.0.1:${await freePort()}`, /cannot open the database DATABASE_URL \(http:\/\/127\.0\.0\.1:\d+\): fetch failed: .*ECONNREFUSED/],
    ["a folder", async () => { mkdirSync(path.join(tmp.dir, "folder.db")); return `file:${tmp.dir}/folder.db`; }, /cannot open the database DATABASE_URL \(file:.*folder\.db\): .*folder\.db is a folder, not a database file/],
    ["a path through a file", async () => "file:/dev/null/x.db", /cannot open the database DATABASE_URL \(file:\/dev\/null\/x\.db\): \/dev\/null is not a folder/],
  ] as const)("%s", async (_what, url, message) => {
    const databaseUrl = await url();
    for (const args of [["create-token", "--email", "a@example.com", "--name", "t"], ["backup", path.join(tmp.dir, "never.db")]]) {
      const result = await admin(databaseUrl, args, SECRET);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(existsSync(path.join(tmp.dir, "never.db"))).toBe(false);
  });

  it("without the credentials in the URL", async () => {
    const result = await admin(`libsql://ana:hunter2-password@127.0.0.1:${await freePort()}?tls=0&authToken=secret-jwt-value`, ["create-token", "--email", "a@example.com", "--name", "t"], SECRET);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^baton: cannot open the database DATABASE_URL \(libsql:\/\/127\.0\.0\.1:\d+\?tls=0&authToken=…\): /);
    expect(result.stderr).not.toMatch(/hunter2|secret-jwt-value|ana:/);
  });
});

describe("baton admin backup refuses, writing nothing", () => {
  const made = `file:${tmp.dir}/made/baton.db`;
  const files = () => readdirSync(path.join(tmp.dir, "made")).sort();
  const linked = (name: string) => {
    if (!existsSync(path.join(tmp.dir, "alias"))) symlinkSync(path.join(tmp.dir, "made"), path.join(tmp.dir, "alias"));
    return path.join(tmp.dir, "alias", name);
  };

  it.each([
    ["a DATABASE_URL file that does not exist (it is not made)", "file:" + path.join(tmp.dir, "typo", "baton.db"), () => path.join(tmp.dir, "b1.db"), 4, /cannot open the database DATABASE_URL \(file:.*typo\/baton\.db\): there is no file .*typo\/baton\.db$/m],
    ["the database itself", made, () => path.join(tmp.dir, "made", "baton.db"), 2, /baton\.db is DATABASE_URL's own database: name a new file/],
    ["its write-ahead log", made, () => path.join(tmp.dir, "made", "baton.db-wal"), 2, /baton\.db-wal is DATABASE_URL's own wal file/],
    ["its shared-memory file", made, () => path.join(tmp.dir, "made", "baton.db-shm"), 2, /baton\.db-shm is DATABASE_URL's own shm file/],
    ["its rollback journal, named through a link to its folder", made, () => linked("baton.db-journal"), 2, /alias\/baton\.db-journal is DATABASE_URL's own journal file/],
  ] as const)("%s", async (_what, databaseUrl, target, code, message) => {
    if (databaseUrl === made && !existsSync(path.join(tmp.dir, "made"))) {
      expect((await admin(made, ["create-user", "--email", "ana@example.com", "--password", "long enough pass"])).code).toBe(0);
    }
    const before = existsSync(path.join(tmp.dir, "made")) ? files() : [];
    const result = await admin(databaseUrl, ["backup", target()]);
    expect(result.code, result.stderr).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(existsSync(path.join(tmp.dir, "typo"))).toBe(false);
    expect(existsSync(path.join(tmp.dir, "b1.db"))).toBe(false);
    if (databaseUrl === made) expect(files()).toEqual(before);
  });

  it.each([
    ["not a Baton database", ["CREATE TABLE t (x)"], /DATABASE_URL is not a Baton database \(it has no __drizzle_migrations\): nothing to back up/],
    ["made by a newer Baton", [
      "CREATE TABLE __drizzle_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, hash text NOT NULL, created_at numeric)",
      `INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', ${Date.now() + 365 * 86_400_000})`,
    ], /DATABASE_URL was made by a newer Baton .*: back it up with that version or a later one/],
  ])("a source %s, worded about the source", async (what, statements, message) => {
    const source = path.join(tmp.dir, `${what.replace(/\W+/g, "-")}.db`);
    const db = createClient({ url: `file:${source}` });
    await db.batch(statements);
    db.close();
    const target = path.join(tmp.dir, `${what.replace(/\W+/g, "-")}.backup.db`);
    const result = await admin(`file:${source}`, ["backup", target]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain(".partial");
    expect(existsSync(target) || existsSync(`${target}.partial`)).toBe(false);
  });
});

it("backup and restore of a libSQL server need no BATON_SECRET", async () => {
  const sqld = await startSqld();
  cleanups.push(() => sqld.stop());
  const local = `file:${tmp.dir}/local.db`;
  expect((await admin(local, ["create-user", "--email", "ana@example.com", "--password", "long enough pass"])).code).toBe(0);
  const first = path.join(tmp.dir, "local.backup.db");
  expect((await admin(local, ["backup", first])).code).toBe(0);
  const restore = await admin(sqld.url, ["restore", first]);
  expect(restore.code, restore.stderr).toBe(0);
  const backup = await admin(sqld.url, ["backup", path.join(tmp.dir, "remote.backup.db")]);
  expect(backup.code, backup.stderr).toBe(0);
  expect(JSON.parse(backup.stdout)).toMatchObject({ ok: true, backup: { method: "snapshot-copy" } });
  // The other admin commands sign nothing either, but a remote database's configuration still asks for the secret.
  expect((await admin(sqld.url, ["create-token", "--email", "ana@example.com", "--name", "t"])).stderr).toMatch(/BATON_SECRET is required/);
}, 60_000);
