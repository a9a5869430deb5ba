import { sideClient } from "../support/side-db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { createProject, createUserWithToken } from "../support/fixtures";
import { startServer, tempDir, type RunningServer } from "../support/server";

/**
 * GET /api/context takes a token this instance remembers as it was and checks it in the context's own
 * first batch (no lookup round trip of its own): a token revoked or changed meanwhile is found out by
 * that check, in the same request.
 */

/** A token is remembered as checked for 5 s after it was looked up (lib/auth/token-memory.ts). */
const TOKEN_MEMORY_MS = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tmp = tempDir("baton-token-check-");
const databaseUrl = `file:${tmp.dir}/baton.db`;
let server: RunningServer;
const sql = async (query: string, args: string[] = []) => {
  const db = sideClient(databaseUrl);
  try {
    return (await db.execute({ sql: query, args })).rows;
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  server = await startServer({ databaseUrl });
  const owner = await createUserWithToken(databaseUrl, "ana@example.com");
  await createProject(server.url, owner, "web");
  await createProject(server.url, owner, "other");
}, 60_000);

afterAll(async () => {
  await server?.stop();
  tmp.remove();
});

describe("a remembered token checked in the context's own reads", () => {
  it("refuses a token revoked since it was remembered, in the same request", async () => {
    const token = await createUserWithToken(databaseUrl, "ana@example.com", { existing: true });
    const ask = apiClient(server.url, token);
    expect((await ask("GET", "/api/context?project=web&format=text&q=deploys")).status).toBe(200);
    await sleep(TOKEN_MEMORY_MS + 500);
    await sql("DELETE FROM api_tokens WHERE id = (SELECT id FROM api_tokens ORDER BY created_at DESC LIMIT 1)");
    const refused = await ask("GET", "/api/context?project=web&format=text&q=deploys");
    expect(refused.status).toBe(401);
    // A malformed question with it is refused as the token, not answered as a bad question.
    expect((await ask("GET", "/api/context?budget=oops")).status).toBe(401);
  });

  it("refuses a token revoked through another instance a moment after it was used, a kept answer's question too", async () => {
    const token = await createUserWithToken(databaseUrl, "ana@example.com", { existing: true });
    const ask = apiClient(server.url, token);
    const question = "/api/context?project=web&format=text&q=releases";
    expect((await ask("GET", question)).status).toBe(200);
    expect((await ask("GET", question)).headers.get("x-baton-cache")).toBe("hit");
    // Another instance on the same database revokes it: this one still remembers it (for 5 s).
    await sql("DELETE FROM api_tokens WHERE id = (SELECT id FROM api_tokens ORDER BY created_at DESC LIMIT 1)");
    expect((await ask("GET", question)).status).toBe(401);
    expect((await ask("GET", "/api/context?project=web&format=text&q=other")).status).toBe(401);
  });

  it("answers with what the token may now read when its projects changed since it was remembered", async () => {
    const token = await createUserWithToken(databaseUrl, "ana@example.com", { existing: true, projects: ["web"], scope: "read" });
    const ask = apiClient(server.url, token);
    expect((await ask("GET", "/api/context?project=other&format=text")).status).toBe(403);
    expect((await ask("GET", "/api/context?project=web&format=text")).status).toBe(200);
    await sleep(TOKEN_MEMORY_MS + 500);
    await sql("INSERT INTO api_token_projects (token_id, project_id) SELECT t.id, p.id FROM api_tokens t, projects p WHERE t.scope = 'read' AND p.slug = 'other'");
    expect((await ask("GET", "/api/context?project=other&format=text")).status).toBe(200);
  });
});
