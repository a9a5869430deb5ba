import { openSync, rmSync, writeSync, closeSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { runCli } from "../support/cli";
import { startServer, tempDir, type RunningServer } from "../support/server";

// The embedded database file broken under a running server (a bad restore over it, a disk fault, an
// operator's rm): what every client then gets is the outage answer (503, Retry-After, the JSON error
// shape), health says the database does not answer so monitoring sees it, and the server's log keeps
// no value of a failed statement.

const SECRET_CONTENT = "Pelican staging uses the canary bucket";
let server: RunningServer;
let file: string;
let remove: () => void;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  const tmp = tempDir("baton-file-unusable-");
  remove = tmp.remove;
  file = path.join(tmp.dir, "baton.db");
  const databaseUrl = `file:${file}`;
  server = await startServer({ databaseUrl });
  const env = { DATABASE_URL: databaseUrl };
  expect((await runCli(["admin", "create-user", "--email", "ana@example.com", "--password", "long enough pass"], { env })).code).toBe(0);
  const token = (await runCli(["admin", "create-token", "--email", "ana@example.com", "--name", "t"], { env })).stdout.trim();
  call = apiClient(server.url, token);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  remove?.();
});

describe("an embedded database file that cannot be used any more", () => {
  it("overwritten with garbage: 503 with Retry-After on reads and writes, health says so, no value logged", async () => {
    expect((await call("POST", "/api/learnings", { kind: "insight", content: "written before" })).status).toBe(201);
    // What a bad restore leaves: the database, its write-ahead log and its index overwritten in place.
    for (const f of [file, `${file}-wal`, `${file}-shm`]) {
      const fd = openSync(f, "r+");
      writeSync(fd, Buffer.alloc(64 * 1024, 0x5a), 0, 64 * 1024, 0);
      closeSync(fd);
    }
    // A write reads the file again (a read may still be answered from SQLite's cache).
    for (const [method, route, body] of [
      ["POST", "/api/learnings", { kind: "insight", content: SECRET_CONTENT }],
      ["GET", "/api/learnings", undefined],
    ] as const) {
      const res = await call(method, route, body);
      expect(res.status, `${method} ${route}: ${res.text}`).toBe(503);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(res.json).toMatchObject({ ok: false, error: { code: "database_unavailable" } });
    }
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ ok: false, databaseReachable: false });
    expect(server.output()).not.toContain(SECRET_CONTENT);
  });

  it("deleted: health says the database does not answer (SQLite would go on writing to the unlinked file)", async () => {
    rmSync(file, { force: true });
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ ok: false, databaseReachable: false });
  });
});
