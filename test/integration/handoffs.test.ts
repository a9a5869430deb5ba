import { beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { tableCounts } from "../support/fixtures";
import { STANDARD_CAST, TEST_MAX_BODY_BYTES, testWorld } from "../support/world";

// One real server on a real database file. ana owns alpha (bo member, vi viewer) and the projects
// pages, branches and empty that some tests fill; cy owns beta.
const world = testWorld({
  env: { BATON_MAX_BODY_BYTES: TEST_MAX_BODY_BYTES },
  projects: { ...STANDARD_CAST.projects, pages: "ana", branches: "ana", empty: "ana" },
});
const { databaseUrl, as } = world;
const pause = (ms = 3) => new Promise((r) => setTimeout(r, ms));

describe("POST /api/projects/{slug}/handoffs", () => {
  it("stores a handoff (201) and answers without internal ids; the author is the user's name", async () => {
    const res = await as("ana")("POST", "/api/projects/alpha/handoffs", { markdown: "# Done\nShipped the guard.", branch: "main" });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({
      ok: true,
      handoff: {
        id: expect.any(String),
        project: "alpha",
        markdown: "# Done\nShipped the guard.",
        sessionId: null,
        branch: "main",
        author: "ana",
        signedAs: null,
        agent: null,
        model: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    });
  });

  it("the author is always the token's user: a name the client signs with is kept beside it, in the list and the context too", async () => {
    // issue 21, finding 1: a handoff signed `author: "Alice"` must not read as Alice's.
    const res = await as("bo")("POST", "/api/projects/alpha/handoffs", { markdown: "Did: forged signature.", author: "ana", sessionId: "forged", branch: "forged" });
    expect(res.status).toBe(201);
    expect(res.json.handoff).toMatchObject({ author: "bo", signedAs: "ana" });
    const listed = (await as("ana")("GET", "/api/projects/alpha/handoffs?branch=forged")).json.items;
    expect(listed).toMatchObject([{ author: "bo", signedAs: "ana" }]);
    const context = (await as("ana")("GET", "/api/context?project=alpha&branch=forged&format=text")).text;
    expect(context).toMatch(/by bo\b/);
    expect(context).not.toMatch(/by ana\b/);
    // Its own name is no signature worth keeping.
    const own = await as("bo")("POST", "/api/projects/alpha/handoffs", { markdown: "x", author: "bo" });
    expect(own.json.handoff).toMatchObject({ author: "bo", signedAs: null });
  });

  it.each([
    { name: "trailing spaces and newlines", markdown: "line with trailing spaces   \n\n\n" },
    { name: "CRLF line ends", markdown: "# Title\r\n\r\n- item\r\n- item 2\r\n" },
    { name: "leading blank lines and tabs", markdown: "\n\n\tindented\t\n  two spaces" },
    { name: "unicode: accents, CJK, emoji, combining marks, RTL", markdown: "Café — 日本語 🚀👩🏽‍💻 e\u0301 שלום\u200f end" },
    { name: "a lone CR and form feed", markdown: "a\rb\fc" },
    { name: "characters JSON escapes", markdown: 'quotes " and \\ backslash and \u2028 separator' },
  ])("keeps the markdown byte for byte: $name", async ({ markdown }) => {
    const sessionId = `bytes-${Math.random().toString(36).slice(2)}`;
    const posted = await as("ana")("POST", "/api/projects/alpha/handoffs", { markdown, sessionId });
    expect(posted.status).toBe(201);
    expect(posted.json.handoff.markdown).toBe(markdown);
    const list = await as("ana")("GET", "/api/projects/alpha/handoffs?limit=100");
    const stored = list.json.items.find((h: { sessionId: string }) => h.sessionId === sessionId);
    expect(Buffer.from(stored.markdown)).toEqual(Buffer.from(markdown));
  });

  it("the same session id again replaces that handoff (200); a new one is created (201)", async () => {
    const first = await as("ana")("POST", "/api/projects/alpha/handoffs", { markdown: "turn 1", sessionId: "sess-replace", branch: "main" });
    expect(first.status).toBe(201);
    await pause();
    const second = await as("ana")("POST", "/api/projects/alpha/handoffs", { markdown: "turn 1\nturn 2", sessionId: "sess-replace", branch: "feat" });
    expect(second.status).toBe(200);
    expect(second.json.handoff).toMatchObject({ id: first.json.handoff.id, markdown: "turn 1\nturn 2", branch: "feat" });
    expect(second.json.handoff.createdAt >= first.json.handoff.createdAt).toBe(true);
    const list = await as("ana")("GET", "/api/projects/alpha/handoffs?limit=100");
    expect(list.json.items.filter((h: { sessionId: string }) => h.sessionId === "sess-replace")).toHaveLength(1);
    // The same session id in another project is another handoff.
    expect((await as("ana")("POST", "/api/projects/gamma/handoffs", { markdown: "other", sessionId: "sess-replace" })).status).toBe(201);
  });

  it("racing Stop hooks of one session leave one handoff", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => as("ana")("POST", "/api/projects/alpha/handoffs", { markdown: `turn ${i}`, sessionId: "sess-race" })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(9);
    const list = await as("ana")("GET", "/api/projects/alpha/handoffs?limit=100");
    expect(list.json.items.filter((h: { sessionId: string }) => h.sessionId === "sess-race")).toHaveLength(1);
  });

  it("another member cannot overwrite a session's handoff (409), and nothing changes", async () => {
    expect((await as("ana")("POST", "/api/projects/alpha/handoffs", { markdown: "ana's", sessionId: "sess-owned" })).status).toBe(201);
    const res = await as("bo")("POST", "/api/projects/alpha/handoffs", { markdown: "bo's", sessionId: "sess-owned" });
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe("conflict");
    const list = await as("ana")("GET", "/api/projects/alpha/handoffs?limit=100");
    expect(list.json.items.find((h: { sessionId: string }) => h.sessionId === "sess-owned").markdown).toBe("ana's");
  });

  it.each([
    { name: "no markdown", body: { branch: "main" }, field: "markdown" },
    { name: "empty markdown", body: { markdown: "" }, field: "markdown" },
    { name: "whitespace-only markdown", body: { markdown: " \n\t\r\n" }, field: "markdown" },
    { name: "markdown not a string", body: { markdown: 42 }, field: "markdown" },
    { name: "sessionId with spaces", body: { markdown: "x", sessionId: "a b" }, field: "sessionId" },
    { name: "sessionId empty", body: { markdown: "x", sessionId: "" }, field: "sessionId" },
    { name: "sessionId too long", body: { markdown: "x", sessionId: "s".repeat(201) }, field: "sessionId" },
    { name: "branch not a string", body: { markdown: "x", branch: ["main"] }, field: "branch" },
    { name: "branch with a newline", body: { markdown: "x", branch: "ma\nin" }, field: "branch" },
    { name: "author empty", body: { markdown: "x", author: "  " }, field: "author" },
    { name: "an array body", body: [{ markdown: "x" }], field: undefined },
    { name: "null body", body: null, field: undefined },
  ])("a bad body ($name) → 400 naming the field, nothing stored", async ({ body, field }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("ana")("POST", "/api/projects/alpha/handoffs", body === null ? "null" : body);
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ ok: false, error: { code: "validation_failed" } });
    if (field) expect(res.json.error.issues.map((i: { path: string[] }) => i.path[0])).toContain(field);
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });

  // libSQL cuts text at NUL: refusing it (in the shared body parser) beats storing half a document.
  it.each([
    { name: "markdown with a NUL character", body: { markdown: "before\u0000after" } },
    { name: "author with a NUL", body: { markdown: "x", author: "a\u0000b" } },
  ])("$name → 400, nothing stored", async ({ body }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("ana")("POST", "/api/projects/alpha/handoffs", body);
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain("NUL");
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });

  it.each([
    { name: "broken JSON", body: "{", type: "application/json", status: 400 },
    { name: "text/plain", body: "hello", type: "text/plain", status: 415 },
    { name: "over the body limit", body: JSON.stringify({ markdown: "x".repeat(70_000) }), type: "application/json", status: 413 },
  ])("$name → $status, nothing stored", async ({ body, type, status }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("ana")("POST", "/api/projects/alpha/handoffs", body, { "content-type": type });
    expect(res.status).toBe(status);
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });
});

describe("GET /api/projects/{slug}/handoffs", () => {
  const posted: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 7; i++) {
      const res = await as("ana")("POST", "/api/projects/pages/handoffs", { markdown: `handoff ${i}`, branch: i % 2 ? "odd" : "even" });
      posted.unshift(res.json.handoff.id);
      await pause();
    }
  });

  it("lists newest first", async () => {
    const res = await as("ana")("GET", "/api/projects/pages/handoffs");
    expect(res.status).toBe(200);
    expect(res.json.items.map((h: { id: string }) => h.id)).toEqual(posted);
    expect(res.json.nextCursor).toBeNull();
  });

  it.each([1, 2, 3, 7])("pages through everything exactly once with limit=%i", async (limit) => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 20; pages++) {
      const res: { json: { items: { id: string }[]; nextCursor: string | null } } = await as("ana")(
        "GET",
        `/api/projects/pages/handoffs?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(res.json.items.length).toBeLessThanOrEqual(limit);
      seen.push(...res.json.items.map((h) => h.id));
      cursor = res.json.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(posted);
  });

  it("filters by branch", async () => {
    const res = await as("ana")("GET", "/api/projects/pages/handoffs?branch=odd");
    expect(res.json.items.map((h: { markdown: string }) => h.markdown)).toEqual(["handoff 5", "handoff 3", "handoff 1"]);
    const none = await as("ana")("GET", "/api/projects/pages/handoffs?branch=nope");
    expect(none.json).toEqual({ ok: true, items: [], nextCursor: null });
  });

  it.each([
    { query: "limit=0" },
    { query: "limit=101" },
    { query: "limit=abc" },
    { query: "cursor=not-a-cursor" },
    { query: "cursor=WzEsMl0" }, // [1,2]: valid base64 JSON, wrong shape
  ])("a bad query ($query) → 400", async ({ query }) => {
    const res = await as("ana")("GET", `/api/projects/pages/handoffs?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.ok).toBe(false);
  });
});

describe("GET /api/projects/{slug}/handoffs/latest", () => {
  beforeAll(async () => {
    for (const [markdown, branch] of [
      ["main 1", "main"],
      ["feat 1", "feat/x"],
      ["main 2", "main"],
      ["no branch", undefined],
    ] as const) {
      expect((await as("ana")("POST", "/api/projects/branches/handoffs", { markdown, branch })).status).toBe(201);
      await pause();
    }
  });

  it.each([
    { name: "a branch with handoffs → newest on it", query: "?branch=main", markdown: "main 2", matchedBranch: true },
    { name: "a branch with a slash", query: "?branch=feat%2Fx", markdown: "feat 1", matchedBranch: true },
    { name: "a branch without handoffs → newest of the project", query: "?branch=other", markdown: "no branch", matchedBranch: false },
    { name: "no branch → newest of the project", query: "", markdown: "no branch", matchedBranch: false },
    { name: "an empty branch → as if none", query: "?branch=", markdown: "no branch", matchedBranch: false },
  ])("$name", async ({ query, markdown, matchedBranch }) => {
    const res = await as("ana")("GET", `/api/projects/branches/handoffs/latest${query}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ ok: true, matchedBranch, handoff: { markdown, project: "branches" } });
  });

  it("a newer handoff on the branch wins again", async () => {
    await pause();
    await as("ana")("POST", "/api/projects/branches/handoffs", { markdown: "feat 2", branch: "feat/x" });
    const res = await as("ana")("GET", "/api/projects/branches/handoffs/latest?branch=feat/x");
    expect(res.json).toMatchObject({ matchedBranch: true, handoff: { markdown: "feat 2", branch: "feat/x" } });
  });

  it("a project without handoffs → 404", async () => {
    const res = await as("ana")("GET", "/api/projects/empty/handoffs/latest?branch=main");
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
  });
});

describe("who may read and write handoffs", () => {
  const routes = [
    { method: "GET", path: "/api/projects/{p}/handoffs" },
    { method: "GET", path: "/api/projects/{p}/handoffs/latest" },
    { method: "POST", path: "/api/projects/{p}/handoffs", body: { markdown: "x" } },
  ];
  const writes = routes.filter((r) => r.method !== "GET");

  it.each(routes)("a member of another project → 404 on $method $path, without revealing it", async ({ method, path, body }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("bo")(method, path.replace("{p}", "beta"), body);
    expect(res.status).toBe(404);
    expect(res.json.error.message).not.toContain("cy");
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });

  it.each(routes)("a token limited to another project → 403 on $method $path", async ({ method, path, body }) => {
    const res = await as("anaGammaOnly")(method, path.replace("{p}", "alpha"), body);
    expect(res.status).toBe(403);
  });

  it.each(writes)("a read token → 403 on $method $path, nothing stored", async ({ method, path, body }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("anaRead")(method, path.replace("{p}", "alpha"), body);
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("forbidden");
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });

  it.each(writes)("a viewer → 403 on $method $path, nothing stored", async ({ method, path, body }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("vi")(method, path.replace("{p}", "alpha"), body);
    expect(res.status).toBe(403);
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });

  it("a viewer and a read token read", async () => {
    expect((await as("vi")("GET", "/api/projects/alpha/handoffs")).status).toBe(200);
    expect((await as("vi")("GET", "/api/projects/alpha/handoffs/latest")).status).toBe(200);
    expect((await as("anaRead")("GET", "/api/projects/alpha/handoffs")).status).toBe(200);
  });

  it("no token → 401", async () => {
    expect((await apiClient(world.server.url)("GET", "/api/projects/alpha/handoffs")).status).toBe(401);
  });
});
