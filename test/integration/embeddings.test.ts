import { sideClient } from "../support/side-db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { createProject, createUserWithToken } from "../support/fixtures";
import { startFakeEmbedder, type FakeEmbedder } from "../support/fake-embedder";
import { startServer, tempDir, type RunningServer } from "../support/server";

const tmp = tempDir();
const databaseUrl = `file:${tmp.dir}/vectors.db`;
let embedder: FakeEmbedder;
let server: RunningServer;
let plain: RunningServer;
let ana: ReturnType<typeof apiClient>;
let anaPlain: ReturnType<typeof apiClient>;
const TARGET = "Session cookies expire after 24 hours of inactivity; refresh them in middleware";

async function vectorCount(): Promise<number> {
  const db = sideClient(databaseUrl);
  try {
    return Number((await db.execute("SELECT count(*) AS n FROM learning_vectors")).rows[0]!.n);
  } catch {
    return 0;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  embedder = await startFakeEmbedder();
  server = await startServer({ databaseUrl, env: { EMBEDDINGS_URL: embedder.url, EMBEDDINGS_MODEL: "fake-16" } });
  // The same database served without an embedder: the BM25-only baseline for the same question.
  plain = await startServer({ databaseUrl });
  const token = await createUserWithToken(databaseUrl, "ana@example.com");
  ana = apiClient(server.url, token);
  anaPlain = apiClient(plain.url, token);
  await createProject(server.url, token, "web");
  expect((await ana("POST", "/api/learnings", { kind: "insight", content: TARGET, project: "web", createdAt: "2026-01-01T00:00:00Z" })).status).toBe(201);
  // Many newer learnings, so recency alone would not reach the target within a small budget.
  for (let i = 0; i < 40; i++) {
    const res = await ana("POST", "/api/learnings", { kind: "pattern", content: `Widget ${i} renders a chart of quarterly numbers`, project: "web", confirmed: true });
    expect(res.status).toBe(201);
  }
});
afterAll(async () => {
  await Promise.all([server?.stop(), plain?.stop()]);
  await embedder?.stop();
  tmp.remove();
});

describe("with an embedder", () => {
  it("computes vectors when learnings are written, in the background", async () => {
    for (let i = 0; i < 100 && (await vectorCount()) < 41; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await vectorCount()).toBe(41);
    expect(embedder.requests.flat()).toContain(TARGET);
  });

  it("finds a paraphrase that shares no word with the hints, which BM25 alone does not", async () => {
    const query = "/api/context?project=web&budget=300&q=" + encodeURIComponent("users keep getting logged out");
    const before = embedder.requests.length;
    const hybrid = (await ana("GET", query)).json;
    expect(hybrid.context).toContain(TARGET.slice(0, 40));
    // Only the hints were embedded on the request path, not any learning.
    expect(embedder.requests.slice(before)).toEqual([["users keep getting logged out"]]);
    const bm25 = (await anaPlain("GET", query)).json;
    expect(bm25.context).not.toContain(TARGET.slice(0, 40));
  });

  it("the prompt stage finds the paraphrase by meaning too, which BM25 alone does not", async () => {
    const query = `/api/context/prompt?project=web&sessionId=s-meaning&q=${encodeURIComponent("why do users keep getting logged out?")}`;
    const hybrid = (await ana("GET", query)).json;
    expect(hybrid.context).toContain(TARGET);
    // Only the one close by meaning: the widgets are no nearer than any unrelated text.
    expect(hybrid.learningsShown).toBe(1);
    expect((await anaPlain("GET", query.replace("s-meaning", "s-words"))).json.learningsShown).toBe(0);
  });

  it("an edited learning is embedded again", async () => {
    const id = (await ana("GET", "/api/learnings?q=widget+17")).json.items[0].id;
    const before = embedder.requests.flat().length;
    expect((await ana("PATCH", `/api/learnings/${id}`, { content: "Deploys to staging need a release tag" })).status).toBe(200);
    for (let i = 0; i < 50 && !embedder.requests.flat().slice(before).includes("Deploys to staging need a release tag"); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(embedder.requests.flat().slice(before)).toContain("Deploys to staging need a release tag");
  });

  it("an embedder that is down never fails a context request", async () => {
    await embedder.stop();
    const res = await ana("GET", "/api/context?project=web&q=" + encodeURIComponent("charts of quarterly widgets are slow"));
    expect(res.status).toBe(200);
    expect(res.json.context).toContain("Widget");
    expect((await ana("POST", "/api/learnings", { kind: "pattern", content: "Written while the embedder is down", project: "web" })).status).toBe(201);
  });
});
