import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { startFakeEmbedder, type FakeEmbedder } from "../support/fake-embedder";
import { createProject, createUserWithToken } from "../support/fixtures";
import { startServer, tempDir, type RunningServer } from "../support/server";
import { sideClient } from "../support/side-db";

// A learning the embeddings API refuses (longer than the model takes: 10,000 characters is past a
// 512-token model's limit) must not hold up every other: the worker asks for a refused batch one text
// at a time, sets the refused learning aside (it is still found by its words), and embeds the rest.

const tmp = tempDir();
const databaseUrl = `file:${tmp.dir}/refused.db`;
let embedder: FakeEmbedder;
let server: RunningServer;

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  const db = sideClient(databaseUrl);
  try {
    return (await db.execute(sql)).rows as unknown as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  embedder = await startFakeEmbedder({ maxChars: 2_000 });
  server = await startServer({ databaseUrl, env: { EMBEDDINGS_URL: embedder.url, EMBEDDINGS_MODEL: "fake-16" } });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await embedder?.stop();
  tmp.remove();
});

describe("a learning the embeddings API refuses", () => {
  it("is set aside, and every other learning is embedded", async () => {
    const token = await createUserWithToken(databaseUrl, "ana@example.com");
    const ana = apiClient(server.url, token);
    await createProject(server.url, token, "web");
    const long = `The release checklist, pasted whole: ${"step after step of the deploy runbook ".repeat(140)}`;
    expect((await ana("POST", "/api/learnings", { kind: "insight", content: long, project: "web" })).status).toBe(201);
    for (let i = 0; i < 10; i++) expect((await ana("POST", "/api/learnings", { kind: "pattern", content: `Short lesson ${i} about deploys`, project: "web" })).status).toBe(201);

    let vectors = 0;
    for (let i = 0; i < 150 && vectors < 10; i++) {
      // The vector table is made with the first vectors.
      vectors = Number((await rows("SELECT count(*) AS n FROM learning_vectors").catch(() => [{ n: 0 }]))[0]?.n ?? 0);
      if (vectors < 10) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(vectors).toBe(10);
    expect(await rows("SELECT count(*) AS n FROM learnings WHERE needs_embedding = 1")).toEqual([{ n: 0 }]);
    expect(server.output()).toMatch(/the embeddings API refused learning #\d+ \(embeddings API answered 400\)/);
    // Still found by its words.
    const context = await ana("GET", `/api/context?project=web&q=${encodeURIComponent("release checklist runbook")}&budget=3000`);
    expect(context.json.context).toContain("The release checklist, pasted whole");
  }, 60_000);
});
