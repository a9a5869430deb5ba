import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, refusedStart, ROOT, startServer, tempDir } from "../support/server";
import { runCli } from "../support/cli";
import { startSqld } from "../support/sqld";

const SECRET = "startup-database-secret-0123456789abc";
const tmp = tempDir("baton-startup-db-");
afterAll(() => tmp.remove());

/** A start that fails on its database ends soon, with one line naming the database and the cause. */
describe("a start whose database does not answer", () => {
  it("nothing listening at DATABASE_URL: exits at once with where (no credentials) and why", async () => {
    const port = await freePort();
    const started = Date.now();
    const { code, lines, stderr } = await refusedStart({ DATABASE_URL: `http://127.0.0.1:${port}?authToken=sekrit`, BATON_SECRET: SECRET });
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(lines).toEqual([`baton: cannot reach the database at http://127.0.0.1:${port}?authToken=…: connect ECONNREFUSED 127.0.0.1:${port}`]);
    expect(stderr).not.toContain("sekrit");
  }, 30_000);

  it("a stalled libSQL server: exits after the request timeout, not the migration's two minutes", async () => {
    const sqld = await startSqld();
    await sqld.pause();
    try {
      const started = Date.now();
      const { code, lines } = await refusedStart({ DATABASE_URL: sqld.url, BATON_SECRET: SECRET, DATABASE_TIMEOUT_MS: "1000" });
      expect(code).toBe(1);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(lines).toEqual([`baton: cannot reach the database at ${sqld.url}: no answer within 1000 ms`]);
    } finally {
      sqld.resume();
      await sqld.stop();
    }
  }, 30_000);
});

/**
 * Another process (as `baton admin restore` does while it copies) holds `file`'s write lock for `ms`;
 * resolves once it holds it, with a wait for its end. `wal`: the file is in WAL mode first; `write`: the
 * transaction writes (a table of its own), or only holds the lock.
 */
async function holdWriteLock(file: string, ms: number, wal = false, write = true): Promise<() => Promise<void>> {
  const holder = spawn(
    process.execPath,
    [
      "-e",
      `const Database = require("libsql");
      const db = new Database(${JSON.stringify(file)});
      if (${wal}) db.exec("PRAGMA journal_mode=WAL");
      db.exec("BEGIN IMMEDIATE");
      if (${write}) db.exec("CREATE TABLE zz_hold (x)");
      console.log("locked");
      setTimeout(() => { db.exec("COMMIT"); db.close(); }, ${ms});`,
    ],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve) => holder.stdout!.on("data", (d) => String(d).includes("locked") && resolve()));
  return async () => {
    if (holder.exitCode === null) await new Promise((resolve) => holder.once("exit", resolve));
  };
}

/** Migrations and operator commands wait for a file's write lock far longer than a request's 5 s. */
describe("another process holding a file database's write lock", () => {
  it("a start waits for it (a restore into a new file), then serves", async () => {
    const file = `${tmp.dir}/held.db`;
    const released = await holdWriteLock(file, 8_000);
    const started = Date.now();
    const server = await startServer({ databaseUrl: `file:${file}` });
    try {
      expect(Date.now() - started).toBeGreaterThan(5_000);
      expect(server.output()).toMatch(/migrations: \d+ applied now/);
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      await server.stop();
      await released();
    }
  }, 60_000);

  it("a restore waits for it, then copies", async () => {
    const source = { DATABASE_URL: `file:${tmp.dir}/source.db` };
    expect((await runCli(["admin", "create-user", "--email", "ana@example.com", "--password", "long enough pass"], { env: source })).code).toBe(0);
    const backup = await runCli(["admin", "backup", `${tmp.dir}/backup.db`], { env: source });
    expect(backup.code, backup.stderr).toBe(0);
    // The new database's lock held by another process: its write transaction takes it with no table made.
    const target = `${tmp.dir}/target.db`;
    const released = await holdWriteLock(target, 8_000, true, false);
    try {
      const restore = await runCli(["admin", "restore", `${tmp.dir}/backup.db`], { env: { DATABASE_URL: `file:${target}` } });
      expect(restore.code, restore.stderr).toBe(0);
    } finally {
      await released();
    }
  }, 60_000);
});
