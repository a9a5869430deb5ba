import { sideClient } from "../support/side-db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { runCli } from "../support/cli";
import { within } from "../support/cluster";
import { startServer, tempDir, type RunningServer } from "../support/server";

// One real server on a real database file; users and tokens made by the real admin CLI.
let server: RunningServer;
const tmp = tempDir();
const databaseUrl = `file:${tmp.dir}/api.db`;
const tokens: Record<string, string> = {};

async function cli(args: string[]) {
  const result = await runCli(args, { env: { DATABASE_URL: databaseUrl } });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout.trim();
}

async function countRows(table: string): Promise<number> {
  const db = sideClient(databaseUrl);
  const rows = await db.execute(`SELECT count(*) AS n FROM ${table}`);
  db.close();
  return Number(rows.rows[0]!.n);
}

beforeAll(async () => {
  server = await startServer({ databaseUrl, env: { BATON_MAX_BODY_BYTES: "4096" } });
  await cli(["admin", "create-user", "--email", "ana@example.com", "--password", "correct horse"]);
  await cli(["admin", "create-user", "--email", "bo@example.com", "--password", "battery staple"]);
  tokens.ana = await cli(["admin", "create-token", "--email", "ana@example.com", "--name", "ana laptop"]);
  tokens.anaRead = await cli(["admin", "create-token", "--email", "ana@example.com", "--name", "ana ro", "--scope", "read"]);
  tokens.bo = await cli(["admin", "create-token", "--email", "bo@example.com", "--name", "bo laptop"]);
  const ana = apiClient(server.url, tokens.ana);
  expect((await ana("POST", "/api/projects", { slug: "web", name: "Web" })).status).toBe(201);
  expect((await ana("POST", "/api/projects", { slug: "api", name: "API" })).status).toBe(201);
  tokens.anaWebOnly = await cli(["admin", "create-token", "--email", "ana@example.com", "--name", "web only", "--project", "web"]);
});

afterAll(async () => {
  await server?.stop();
  tmp.remove();
});

describe("GET /api/health", () => {
  it("is public and names the database kind", async () => {
    const res = await apiClient(server.url)("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ ok: true, database: "embedded" });
    expect(res.json.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("authentication", () => {
  it.each([
    { name: "no token", headers: {} as Record<string, string> },
    { name: "an unknown token", headers: { authorization: "Bearer baton_doesnotexist" } },
    { name: "a malformed header", headers: { authorization: "Token abc" } },
    { name: "a token of another shape", headers: { authorization: "Bearer ghp_123" } },
  ])("$name → 401 with the JSON error shape", async ({ headers }) => {
    const res = await apiClient(server.url)("GET", "/api/projects", undefined, headers);
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ ok: false, error: { code: "unauthorized" } });
    expect(res.json.error.message.length).toBeGreaterThan(10);
  });

  it("a token lists its user's projects and records its last use (bookkeeping, written within about a second)", async () => {
    const res = await apiClient(server.url, tokens.ana)("GET", "/api/projects");
    expect(res.status).toBe(200);
    expect(res.json.items.map((p: { slug: string }) => p.slug)).toEqual(["api", "web"]);
    expect(res.json.items[0]).toEqual({ slug: "api", name: "API", role: "owner", injectionPaused: false, createdAt: expect.any(String) });
    const db = sideClient(databaseUrl);
    const lastUsed = async () => (await db.execute("SELECT last_used_at FROM api_tokens WHERE name = 'ana laptop'")).rows[0]!.last_used_at;
    const took = await within(3_000, async () => (await lastUsed()) !== null);
    db.close();
    expect(took).not.toBeNull();
  });

  it("stores tokens hashed, never in the clear", async () => {
    const db = sideClient(databaseUrl);
    const rows = await db.execute("SELECT token_hash, display_prefix FROM api_tokens");
    db.close();
    for (const row of rows.rows) {
      expect(String(row.token_hash)).toMatch(/^[0-9a-f]{64}$/);
      expect(Object.values(tokens)).not.toContain(String(row.token_hash));
      expect(String(row.display_prefix).length).toBeLessThan(16);
    }
  });

  it("refuses a cookie-less cross-site write even before auth is checked (no session → 401)", async () => {
    const res = await apiClient(server.url)("POST", "/api/projects", { slug: "x", name: "X" }, { origin: "https://evil.example" });
    expect(res.status).toBe(401);
  });
});

describe("projects", () => {
  it("the creator becomes owner; the project is readable by slug", async () => {
    const res = await apiClient(server.url, tokens.ana)("GET", "/api/projects/web");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ ok: true, project: { slug: "web", name: "Web", role: "owner" } });
    expect(res.json.project.id).toBeUndefined();
  });

  it("a taken slug → 409 and nothing changes", async () => {
    const before = await countRows("projects");
    const res = await apiClient(server.url, tokens.bo)("POST", "/api/projects", { slug: "web", name: "Mine" });
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe("conflict");
    expect(await countRows("projects")).toBe(before);
  });

  it.each([
    { name: "missing name", body: { slug: "ok-slug" }, path: "name" },
    { name: "uppercase slug", body: { slug: "Web", name: "W" }, path: "slug" },
    { name: "slug starting with a dash", body: { slug: "-web", name: "W" }, path: "slug" },
    { name: "empty name", body: { slug: "w2", name: "  " }, path: "name" },
    { name: "not an object", body: [1, 2], path: undefined },
  ])("a bad body ($name) → 400 with zod issues, nothing stored", async ({ body, path }) => {
    const before = await countRows("projects");
    const res = await apiClient(server.url, tokens.ana)("POST", "/api/projects", body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ ok: false, error: { code: "validation_failed" } });
    if (path) expect(res.json.error.issues.map((i: { path: string[] }) => i.path[0])).toContain(path);
    expect(await countRows("projects")).toBe(before);
  });

  it.each([
    { name: "broken JSON", body: "{", type: "application/json", status: 400, code: "bad_request" },
    { name: "form data", body: "slug=x", type: "application/x-www-form-urlencoded", status: 415, code: "unsupported_media_type" },
    { name: "over the body limit", body: JSON.stringify({ slug: "big", name: "x".repeat(5000) }), type: "application/json", status: 413, code: "payload_too_large" },
  ])("$name → $status", async ({ body, type, status, code }) => {
    const res = await apiClient(server.url, tokens.ana)("POST", "/api/projects", body, { "content-type": type });
    expect(res.status).toBe(status);
    expect(res.json.error.code).toBe(code);
  });

  it("another user's project → 404, without revealing it exists", async () => {
    const res = await apiClient(server.url, tokens.bo)("GET", "/api/projects/web");
    expect(res.status).toBe(404);
    expect((await apiClient(server.url, tokens.bo)("GET", "/api/projects")).json.items).toEqual([]);
  });

  it("a read token reads but cannot write (403)", async () => {
    const read = apiClient(server.url, tokens.anaRead);
    expect((await read("GET", "/api/projects")).status).toBe(200);
    const res = await read("POST", "/api/projects", { slug: "ro", name: "RO" });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("forbidden");
  });

  it("a project-limited token sees only its project and gets 403 on the others", async () => {
    const web = apiClient(server.url, tokens.anaWebOnly);
    expect((await web("GET", "/api/projects")).json.items.map((p: { slug: string }) => p.slug)).toEqual(["web"]);
    expect((await web("GET", "/api/projects/web")).status).toBe(200);
    expect((await web("GET", "/api/projects/api")).status).toBe(403);
    expect((await web("POST", "/api/projects", { slug: "new-one", name: "N" })).status).toBe(403);
  });

  it("unknown API routes answer 404 in the error shape", async () => {
    const res = await apiClient(server.url, tokens.ana)("GET", "/api/nothing/here");
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ ok: false, error: { code: "not_found" } });
  });
});
