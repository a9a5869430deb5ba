import { sideClient } from "../support/side-db";
import { existsSync, statSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { refusedStart, startServer, tempDir } from "../support/server";

const tmp = tempDir();
/** The start line's account of the schema: "none pending", or how many this start applied; then the total. */
const MIGRATIONS_LINE = /migrations: (none pending|(\d+) applied now) \((\d+) in all\)/;
afterAll(() => tmp.remove());

describe("server start", () => {
  it("two servers started at once on one new database both serve, and the schema is applied once", async () => {
    const databaseUrl = `file:${tmp.dir}/shared.db`;
    const [a, b] = await Promise.all([startServer({ databaseUrl }), startServer({ databaseUrl })]);
    try {
      for (const s of [a, b]) {
        const res = await fetch(`${s.url}/api/health`);
        expect(res.status).toBe(200);
        expect((await fetch(`${s.url}/api/projects`)).status).toBe(401);
      }
      const lines = [a, b].map((s) => MIGRATIONS_LINE.exec(s.output()));
      expect(lines.every(Boolean), a.output() + b.output()).toBe(true);
      const total = Number(lines[0]![3]);
      // One instance applied every migration, the other found none pending.
      const applied = lines.map((m) => (m![1] === "none pending" ? 0 : Number(m![2])));
      expect(applied.sort((x, y) => x - y)).toEqual([0, total]);
      expect(total).toBeGreaterThan(0);
      const db = sideClient(databaseUrl);
      const rows = await db.execute("SELECT count(*) AS n FROM __drizzle_migrations");
      const mode = await db.execute("PRAGMA journal_mode");
      db.close();
      expect(Number(rows.rows[0]!.n)).toBe(total);
      expect(String(mode.rows[0]!.journal_mode)).toBe("wal");
      // Password hashes and everyone's learnings: readable by the owner alone, like the secret beside it.
      const file = `${tmp.dir}/shared.db`;
      for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}.secret`]) {
        expect(existsSync(f), f).toBe(true);
        expect((statSync(f).mode & 0o777).toString(8), f).toBe("600");
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it.each<{ env: Record<string, string>; variable: string }>([
    { env: { DATABASE_URL: "mysql://nope" }, variable: "DATABASE_URL" },
    { env: { DATABASE_URL: `file:${tmp.dir}/c.db`, BATON_MAX_BODY_BYTES: "huge" }, variable: "BATON_MAX_BODY_BYTES" },
    { env: { DATABASE_URL: "libsql://db.example.com" }, variable: "BATON_SECRET" },
    // No scheme: once accepted, then sign-in answered 500 and every link read "baton.example.com:8443/…".
    { env: { DATABASE_URL: `file:${tmp.dir}/d.db`, BATON_BASE_URL: "baton.example.com:8443" }, variable: "BATON_BASE_URL" },
    // A path prefix: the dashboard's redirects go to the host's root.
    { env: { DATABASE_URL: `file:${tmp.dir}/d.db`, BATON_BASE_URL: "https://example.com/baton" }, variable: "BATON_BASE_URL" },
  ])("a wrong $variable stops the start with one line naming it", async ({ env, variable }) => {
    const { code, lines, stderr } = await refusedStart(env);
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(variable);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
