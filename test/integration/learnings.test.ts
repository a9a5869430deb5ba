import { describe, expect, it } from "vitest";
import { KIND_OF_SEED_CATEGORY } from "@/lib/rules";
import { tableCounts } from "../support/fixtures";
import { testWorld } from "../support/world";

// ana owns web, where vi is a viewer; bo is in no project.
const { databaseUrl, as } = testWorld({
  users: ["ana", "bo", "vi"],
  projects: { web: "ana" },
  members: [{ project: "web", user: "vi", role: "viewer" }],
  tokens: { anaRead: { user: "ana", scope: "read" } },
});
const [ana, anaRead, bo, viewer] = [as("ana"), as("anaRead"), as("bo"), as("vi")];

describe("learnings", () => {
  const created: Record<string, string> = {};

  it("creates personal and project learnings, with createdAt for imports", async () => {
    const items = [
      { key: "mig", body: { kind: "pattern", content: "Run database migrations before starting the server", tags: ["db", "ops"], createdAt: "2025-05-01T10:00:00Z" } },
      { key: "commits", body: { kind: "insight", content: "Small commits make reviews faster", project: "web", confirmed: true } },
      { key: "self", body: { kind: KIND_OF_SEED_CATEGORY.selfKnowledge, content: "I forget to update the changelog", source: "session-42" } },
    ];
    for (const { key, body } of items) {
      const res = await ana("POST", "/api/learnings", body);
      expect(res.status, res.text).toBe(201);
      created[key] = res.json.learning.id;
    }
    const mig = await ana("GET", `/api/learnings/${created.mig}`);
    expect(mig.json.learning).toMatchObject({ kind: "pattern", tags: ["db", "ops"], project: null, createdAt: "2025-05-01T10:00:00.000Z", confirmed: false });
    const commits = await ana("GET", `/api/learnings/${created.commits}`);
    expect(commits.json.learning).toMatchObject({ project: "web", confirmed: true, confirmedAt: expect.any(String) });
    expect(commits.json.learning.userId).toBeUndefined();
  });

  it("dates a learning back as asked, never ahead: a future createdAt is now", async () => {
    const before = Date.now();
    const res = await ana("POST", "/api/learnings", { kind: "insight", content: "Feature flags are read once at boot", createdAt: "9999-12-31T23:59:59Z" });
    expect(res.status, res.text).toBe(201);
    const at = Date.parse(res.json.learning.createdAt);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect((await ana("DELETE", `/api/learnings/${res.json.learning.id}`)).status).toBe(200);
  });

  it("a write sent again (a retry after an answer that never came) stores nothing twice: 200 with the one stored", async () => {
    const body = { kind: "pattern", content: "The staging bucket lives in eu-west-1", project: "web", tags: ["s3"] };
    const first = await ana("POST", "/api/learnings", body);
    expect([first.status, first.json.created]).toEqual([201, true]);
    const again = await ana("POST", "/api/learnings", body);
    expect([again.status, again.json.created, again.json.learning.id]).toEqual([200, false, first.json.learning.id]);
    // The same text asking for something else (pinned, another kind) is that, not a retry.
    const pinned = await ana("POST", "/api/learnings", { ...body, pinned: true });
    expect([pinned.status, pinned.json.learning.pinned]).toEqual([201, true]);
    expect((await ana("DELETE", `/api/learnings/${pinned.json.learning.id}`)).status).toBe(200);
    // Another scope is another learning: ana's personal one, bo's personal one.
    const personal = await ana("POST", "/api/learnings", { ...body, project: null });
    const bos = await bo("POST", "/api/learnings", { ...body, project: null });
    expect([personal.status, bos.status]).toEqual([201, 201]);
    expect(new Set([first.json.learning.id, personal.json.learning.id, bos.json.learning.id]).size).toBe(3);
    expect((await ana("GET", "/api/learnings?q=staging+bucket")).json.items).toHaveLength(2);
    for (const id of [first.json.learning.id, personal.json.learning.id]) expect((await ana("DELETE", `/api/learnings/${id}`)).status).toBe(200);
    expect((await bo("DELETE", `/api/learnings/${bos.json.learning.id}`)).status).toBe(200);
  });

  it("searches with stemming (BM25) and filters by kind and project", async () => {
    const hits = await ana("GET", "/api/learnings?q=migrating+databases");
    expect(hits.json.items[0].id).toBe(created.mig);
    // No score: the store-wide statistic would tell how many of others' learnings hold a word.
    expect(hits.json.items[0]).not.toHaveProperty("score");
    expect((await ana("GET", "/api/learnings?q=ops")).json.items.map((l: { id: string }) => l.id)).toEqual([created.mig]);
    expect((await ana("GET", "/api/learnings?kind=insight")).json.items.map((l: { id: string }) => l.id)).toEqual([created.commits]);
    expect((await ana("GET", "/api/learnings?project=web")).json.items.map((l: { id: string }) => l.id)).toEqual([created.commits]);
    expect((await ana("GET", '/api/learnings?q=%22%29+OR+*')).status).toBe(200);
  });

  it("a search with no word to search for finds nothing, not the newest learnings", async () => {
    expect((await ana("GET", "/api/learnings")).json.items.length).toBeGreaterThan(0);
    for (const q of ["🦓", "*", "OR", "a", "the", '"'] as const) {
      const res = await ana("GET", `/api/learnings?${new URLSearchParams({ q })}`);
      expect(res.status, q).toBe(200);
      expect(res.json, q).toEqual({ ok: true, items: [], nextCursor: null });
    }
    // An empty or blank q is no search: the newest, as without it.
    expect((await ana("GET", "/api/learnings?q=")).json.items.length).toBeGreaterThan(0);
    expect((await ana("GET", "/api/learnings?q=+")).json.items.length).toBeGreaterThan(0);
  });

  it("paginates with a cursor, newest first, without repeats", async () => {
    for (let i = 0; i < 7; i++) await ana("POST", "/api/learnings", { kind: "pattern", content: `Paging item ${i} about widgets` });
    const seen: string[] = [];
    let cursor: string | null = "";
    let pages = 0;
    while (cursor !== null) {
      const res = await ana("GET", `/api/learnings?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...res.json.items.map((l: { id: string }) => l.id));
      cursor = res.json.nextCursor;
      pages++;
    }
    expect(pages).toBe(4);
    expect(new Set(seen).size).toBe(10);
    const searchPages = [await ana("GET", "/api/learnings?q=widgets&limit=4")];
    searchPages.push(await ana("GET", `/api/learnings?q=widgets&limit=4&cursor=${searchPages[0]!.json.nextCursor}`));
    expect(new Set(searchPages.flatMap((p) => p.json.items.map((l: { id: string }) => l.id))).size).toBe(7);
    expect((await ana("GET", "/api/learnings?cursor=garbage")).status).toBe(400);
  });

  it("edits, confirms and deletes", async () => {
    const res = await ana("PATCH", `/api/learnings/${created.self}`, { content: "I forget to update CHANGELOG.md", confirmed: true, tags: ["docs"] });
    expect(res.status).toBe(200);
    expect(res.json.learning).toMatchObject({ content: "I forget to update CHANGELOG.md", confirmed: true, tags: ["docs"] });
    expect(res.json.learning.confirmedAt).not.toBeNull();
    expect((await ana("GET", "/api/learnings?q=changelog")).json.items[0].id).toBe(created.self);
    expect((await ana("DELETE", `/api/learnings/${created.self}`)).status).toBe(200);
    expect((await ana("GET", `/api/learnings/${created.self}`)).status).toBe(404);
    expect((await ana("GET", "/api/learnings?q=changelog")).json.items).toEqual([]);
  });

  it("personal learnings are their owner's alone; project learnings are the members'", async () => {
    expect((await bo("GET", `/api/learnings/${created.mig}`)).status).toBe(404);
    expect((await bo("PATCH", `/api/learnings/${created.mig}`, { confirmed: true })).status).toBe(404);
    expect((await bo("DELETE", `/api/learnings/${created.commits}`)).status).toBe(404);
    expect((await bo("GET", "/api/learnings?q=migrations")).json.items).toEqual([]);
    expect((await bo("GET", "/api/learnings?project=web")).status).toBe(404);
    const seen = await viewer("GET", "/api/learnings");
    expect(seen.json.items.map((l: { id: string }) => l.id)).toEqual([created.commits]);
    expect((await viewer("PATCH", `/api/learnings/${created.commits}`, { confirmed: false })).status).toBe(403);
    expect((await viewer("POST", "/api/learnings", { kind: "pattern", content: "x", project: "web" })).status).toBe(403);
    expect((await anaRead("POST", "/api/learnings", { kind: "pattern", content: "x" })).status).toBe(403);
  });

  it.each([
    { method: "POST", path: "/api/learnings", body: { kind: "rumour", content: "x" } },
    { method: "POST", path: "/api/learnings", body: { kind: "pattern", content: "" } },
    { method: "POST", path: "/api/learnings", body: { kind: "pattern", content: "x", tags: "a,b" } },
    { method: "POST", path: "/api/learnings", body: { kind: "pattern", content: "x", createdAt: "last week" } },
    { method: "POST", path: "/api/learnings", body: { kind: "pattern", content: "x", project: "Not A Slug" } },
    { method: "POST", path: "/api/learnings", body: { kind: "pattern", content: "x", surprise: true } },
    { method: "PATCH", path: "/api/learnings/ID", body: {} },
    { method: "PATCH", path: "/api/learnings/ID", body: { confirmed: "yes" } },
    { method: "PATCH", path: "/api/learnings/ID", body: { content: "x".repeat(10_001) } },
  ])("$method $path with a bad body → 400, nothing changes", async ({ method, path, body }) => {
    const before = await tableCounts(databaseUrl);
    const snapshot = await ana("GET", `/api/learnings/${created.mig}`);
    const res = await ana(method, path.replace("ID", created.mig!), body);
    expect(res.status).toBe(400);
    expect(res.json.ok).toBe(false);
    expect(await tableCounts(databaseUrl)).toEqual(before);
    expect((await ana("GET", `/api/learnings/${created.mig}`)).json).toEqual(snapshot.json);
  });
});
