import { createClient } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { addMember, createProject, createUserWithToken, tableCounts } from "../support/fixtures";
import { startServer, tempDir, type RunningServer } from "../support/server";

// One real server on a real database file, and a second instance on the same file for the races
// (several processes sharing one WAL database is how Baton scales out). ana owns alpha, queue and
// order (bo and dee members of alpha and queue, vi a viewer of alpha); cy owns beta.
let server: RunningServer;
let second: RunningServer;
const tmp = tempDir();
const databaseUrl = `file:${tmp.dir}/sessions.db`;
const tokens: Record<string, string> = {};
const as = (who: string) => apiClient(server.url, tokens[who]);
const pause = (ms = 3) => new Promise((r) => setTimeout(r, ms));
const agents = ["ana", "bo", "dee", "ana2"];
/** The i-th of many concurrent agents: tokens of several members, requests spread over both instances. */
const agent = (i: number) => apiClient((i % 2 ? second : server).url, tokens[agents[i % agents.length]!]);
let betaSessionId = "";

async function queue(who: string, slug: string, markdown: string) {
  const res = await as(who)("POST", `/api/projects/${slug}/sessions`, { markdown });
  expect(res.status, res.text).toBe(201);
  return res.json.session as { id: string; [key: string]: unknown };
}

async function statusInDb(id: string): Promise<string> {
  const db = createClient({ url: databaseUrl });
  const rows = await db.execute({ sql: "SELECT status FROM session_docs WHERE id = ?", args: [id] });
  db.close();
  return String(rows.rows[0]!.status);
}

beforeAll(async () => {
  server = await startServer({ databaseUrl, env: { BATON_MAX_BODY_BYTES: "65536" } });
  second = await startServer({ databaseUrl, env: { BATON_MAX_BODY_BYTES: "65536" } });
  for (const who of ["ana", "bo", "vi", "cy", "dee"]) tokens[who] = await createUserWithToken(databaseUrl, `${who}@example.com`);
  for (const slug of ["alpha", "queue", "order", "gamma"]) await createProject(server.url, tokens.ana!, slug);
  await createProject(server.url, tokens.cy!, "beta");
  for (const slug of ["alpha", "queue"]) {
    await addMember(databaseUrl, slug, "bo@example.com", "member");
    await addMember(databaseUrl, slug, "dee@example.com", "member");
  }
  await addMember(databaseUrl, "alpha", "vi@example.com", "viewer");
  tokens.anaRead = await createUserWithToken(databaseUrl, "ana@example.com", { scope: "read", existing: true });
  tokens.anaGammaOnly = await createUserWithToken(databaseUrl, "ana@example.com", { projects: ["gamma"], existing: true });
  tokens.ana2 = await createUserWithToken(databaseUrl, "ana@example.com", { existing: true });
  betaSessionId = (await queue("cy", "beta", "---\nid: beta-secret\n---\nBeta work")).id;
});

afterAll(async () => {
  await Promise.all([server?.stop(), second?.stop()]);
  tmp.remove();
});

describe("POST /api/projects/{slug}/sessions", () => {
  const full = [
    "---",
    "id: task-368.session_1",
    "priority: high",
    "tags: [auth, api]",
    "branch: feat/tokens",
    "specs:",
    "  - docs/spec.md",
    "  - docs/api.md",
    "files: [lib/auth/guard.ts]",
    "created_at: 2025-01-31T09:00:00Z",
    "working_directory: /home/ana/baton",
    "owner_note: kept in the markdown  ",
    "---",
    "",
    "# Wire the token guard   ",
    "Ünïcødé ✓ 🚀",
    "",
  ].join("\n");

  it("queues a document (201) with its front matter read, the markdown byte for byte, no internal ids", async () => {
    const res = await as("ana")("POST", "/api/projects/alpha/sessions", { markdown: full });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({
      ok: true,
      session: {
        id: "task-368.session_1",
        project: "alpha",
        status: "todo",
        priority: 1,
        tags: ["auth", "api"],
        branch: "feat/tokens",
        specs: ["docs/spec.md", "docs/api.md"],
        files: ["lib/auth/guard.ts"],
        workingDirectory: "/home/ana/baton",
        markdown: full,
        claimedBy: null,
        claimedAt: null,
        completedAt: null,
        createdAt: "2025-01-31T09:00:00.000Z",
      },
    });
    const again = await as("bo")("GET", "/api/sessions/task-368.session_1");
    expect(again.status).toBe(200);
    expect(Buffer.from(again.json.session.markdown)).toEqual(Buffer.from(full));
  });

  it.each([
    { name: "no front matter → defaults", markdown: "Just do the thing.\n", expect: { priority: 2, tags: [], branch: null, specs: [], files: [] } },
    { name: "empty front matter", markdown: "---\n---\nbody", expect: { priority: 2, tags: [] } },
    { name: "CRLF front matter", markdown: "---\r\npriority: low\r\nspecs:\r\n  - a.md\r\n---\r\nbody\r\n", expect: { priority: 3, specs: ["a.md"] } },
    { name: "priority critical", markdown: "---\npriority: critical\n---\n", expect: { priority: 0 } },
    { name: "priority medium, any case", markdown: "---\npriority: Medium\n---\n", expect: { priority: 2 } },
    { name: "integer priority", markdown: "---\npriority: 7\n---\n", expect: { priority: 7 } },
    { name: "null fields are not given", markdown: "---\nbranch:\ntags:\n---\n", expect: { branch: null, tags: [] } },
    { name: "unknown keys of any shape", markdown: "---\nextra: {a: [1, 2]}\n'odd key': yes\n---\n", expect: { priority: 2 } },
    { name: "a numeric id", markdown: "---\nid: 4711\n---\n", expect: { id: "4711" } },
    { name: "a BOM before the front matter", markdown: "\uFEFF---\npriority: low\n---\n", expect: { priority: 3 } },
  ])("$name", async ({ markdown, expect: fields }) => {
    const session = await queue("ana", "gamma", markdown);
    expect(session).toMatchObject(fields);
    expect(session.markdown).toBe(markdown);
    expect(session.id).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/);
  });

  it("a taken id → 409 and nothing stored, also when the id is used in another project", async () => {
    const before = await tableCounts(databaseUrl);
    const res = await as("ana")("POST", "/api/projects/alpha/sessions", { markdown: "---\nid: task-368.session_1\n---\nagain" });
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe("conflict");
    expect(res.json.error.message).toContain("task-368.session_1");
    const elsewhere = await as("ana")("POST", "/api/projects/gamma/sessions", { markdown: "---\nid: task-368.session_1\n---\nagain" });
    expect(elsewhere.status).toBe(409);
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });

  it.each([
    { name: "broken YAML (unclosed flow list)", markdown: "---\nid: x1\nspecs: [a.md, b.md\n---\nbody", where: /line \d+, column \d+/ },
    { name: "a duplicate key", markdown: "---\nid: x2\nid: x3\n---\n", where: /line 3, column 1/ },
    { name: "a bad indent", markdown: "---\npriority: 1\n  tags: [a]\n---\n", where: /line 2, column \d+/ },
    { name: "unclosed front matter", markdown: "---\nid: x4\n\n# body", where: /no closing ---/ },
    { name: "front matter that is a list", markdown: "---\n- a\n- b\n---\n", where: /mapping/ },
    { name: "specs not a list", markdown: "---\nspecs: docs/a.md\n---\n", where: /"specs" \(line 2\)/ },
    { name: "specs with a number", markdown: "---\nspecs: [a.md, 3]\n---\n", where: /"specs\[1\]"/ },
    { name: "files a mapping", markdown: "---\nfiles: {a: b}\n---\n", where: /"files"/ },
    { name: "tags a string", markdown: "---\ntags: auth\n---\n", where: /"tags"/ },
    { name: "priority unknown name", markdown: "---\npriority: urgent\n---\n", where: /"priority".*critical, high, medium, low/ },
    { name: "priority a fraction", markdown: "---\npriority: 1.5\n---\n", where: /"priority"/ },
    { name: "id with a slash", markdown: "---\nid: a/b\n---\n", where: /"id"/ },
    { name: "id starting with a dot", markdown: "---\nid: .hidden\n---\n", where: /"id"/ },
    { name: "id too long", markdown: `---\nid: ${"a".repeat(101)}\n---\n`, where: /"id"/ },
    { name: "created_at not a date", markdown: "---\ncreated_at: last tuesday\n---\n", where: /"created_at"/ },
    { name: "branch a list", markdown: "---\nbranch: [main]\n---\n", where: /"branch"/ },
    { name: "working_directory a number", markdown: "---\nworking_directory: 7\n---\n", where: /"working_directory"/ },
    { name: "an unresolved alias", markdown: "---\nbranch: *nowhere\n---\n", where: /"branch"/ },
  ])("malformed front matter ($name) → 400 saying where, nothing stored", async ({ markdown, where }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("ana")("POST", "/api/projects/alpha/sessions", { markdown });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe("validation_failed");
    expect(res.json.error.message).toMatch(where);
    expect(res.json.error.issues[0].path[0]).toBe("markdown");
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });

  it.each([
    { name: "no markdown", body: {} },
    { name: "markdown not a string", body: { markdown: ["---"] } },
    { name: "blank markdown", body: { markdown: "\n \n" } },
    { name: "markdown with NUL", body: { markdown: "---\nid: nul\n---\na\u0000b" } },
    { name: "a string body", body: '"just text"' },
    { name: "broken JSON", body: "{" },
  ])("a bad body ($name) → 400, nothing stored", async ({ body }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("ana")("POST", "/api/projects/alpha/sessions", body);
    expect(res.status, res.text).toBe(400);
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });
});

describe("GET /api/projects/{slug}/sessions", () => {
  const expected: string[] = [];

  beforeAll(async () => {
    // Posted out of order; the queue is priority first, then age (front matter created_at or arrival).
    const docs = [
      ["o-low", "---\nid: o-low\npriority: low\n---\n"],
      ["o-crit", "---\nid: o-crit\npriority: critical\n---\n"],
      ["o-med-new", "---\nid: o-med-new\ncreated_at: 2025-03-01T00:00:00Z\n---\n"],
      ["o-med-old", "---\nid: o-med-old\ncreated_at: 2025-02-01T00:00:00Z\n---\n"],
      ["o-high", "---\nid: o-high\npriority: 1\n---\n"],
      ["o-ten", "---\nid: o-ten\npriority: 10\n---\n"],
      ["o-neg", "---\nid: o-neg\npriority: -1\n---\n"],
    ];
    for (const [, markdown] of docs) {
      await queue("ana", "order", markdown!);
      await pause();
    }
    expected.push("o-neg", "o-crit", "o-high", "o-med-old", "o-med-new", "o-low", "o-ten");
  });

  it("orders by priority, then age", async () => {
    const res = await as("ana")("GET", "/api/projects/order/sessions");
    expect(res.status).toBe(200);
    expect(res.json.items.map((s: { id: string }) => s.id)).toEqual(expected);
    expect(res.json.nextCursor).toBeNull();
  });

  it.each([1, 2, 3, 7])("pages through the queue exactly once with limit=%i", async (limit) => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 20; pages++) {
      const res: { json: { items: { id: string }[]; nextCursor: string | null } } = await as("ana")(
        "GET",
        `/api/projects/order/sessions?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`,
      );
      seen.push(...res.json.items.map((s) => s.id));
      cursor = res.json.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(expected);
  });

  it("filters by status", async () => {
    expect((await as("ana")("POST", "/api/sessions/o-crit/claim")).status).toBe(200);
    const doing = await as("ana")("GET", "/api/projects/order/sessions?status=doing");
    expect(doing.json.items.map((s: { id: string }) => s.id)).toEqual(["o-crit"]);
    const todo = await as("ana")("GET", "/api/projects/order/sessions?status=todo");
    expect(todo.json.items.map((s: { id: string }) => s.id)).toEqual(expected.filter((id) => id !== "o-crit"));
    expect((await as("ana")("GET", "/api/projects/order/sessions?status=done")).json.items).toEqual([]);
  });

  it.each(["status=open", "limit=0", "limit=x", "cursor=%%%", "cursor=WyJhIl0"])("a bad query (%s) → 400", async (query) => {
    const res = await as("ana")("GET", `/api/projects/order/sessions?${query}`);
    expect(res.status).toBe(400);
  });
});

describe("claiming, completing and releasing", () => {
  it("claim → 200 with the document; a second claim → 409 naming the holder and since when", async () => {
    await queue("ana", "alpha", "---\nid: c-one\n---\nwork");
    const res = await as("bo")("POST", "/api/sessions/c-one/claim");
    expect(res.status, res.text).toBe(200);
    expect(res.json.session).toMatchObject({
      id: "c-one",
      status: "doing",
      markdown: "---\nid: c-one\n---\nwork",
      claimedBy: { name: "bo", email: "bo@example.com" },
      claimedAt: expect.any(String),
      completedAt: null,
    });
    const second = await as("ana")("POST", "/api/sessions/c-one/claim");
    expect(second.status).toBe(409);
    expect(second.json.error.message).toContain("bo <bo@example.com>");
    expect(second.json.error.message).toContain(res.json.session.claimedAt);
    // The holder's second agent is refused too: two agents never both get it.
    const own = await as("bo")("POST", "/api/sessions/c-one/claim");
    expect(own.status).toBe(409);
    expect(own.json.error.message).toContain("you");
  });

  it("only the claimer or an owner may complete or release (403 for another member)", async () => {
    await queue("ana", "alpha", "---\nid: c-two\n---\nwork");
    expect((await as("dee")("POST", "/api/sessions/c-two/claim")).status).toBe(200);
    for (const verb of ["complete", "release"]) {
      const res = await as("bo")("POST", `/api/sessions/c-two/${verb}`);
      expect(res.status).toBe(403);
      expect(res.json.error.message).toContain("dee");
    }
    expect(await statusInDb("c-two")).toBe("doing");
    const released = await as("ana")("POST", "/api/sessions/c-two/release");
    expect(released.status).toBe(200);
    expect(released.json.session).toMatchObject({ status: "todo", claimedBy: null, claimedAt: null });
    expect((await as("bo")("POST", "/api/sessions/c-two/claim")).status).toBe(200);
    const done = await as("bo")("POST", "/api/sessions/c-two/complete");
    expect(done.status).toBe(200);
    expect(done.json.session).toMatchObject({ status: "done", claimedBy: { name: "bo" }, completedAt: expect.any(String) });
  });

  it("an owner may complete someone else's claim", async () => {
    await queue("ana", "alpha", "---\nid: c-three\n---\nwork");
    expect((await as("bo")("POST", "/api/sessions/c-three/claim")).status).toBe(200);
    expect((await as("ana")("POST", "/api/sessions/c-three/complete")).status).toBe(200);
  });

  it.each([
    { name: "claim a done document", setup: ["claim", "complete"], verb: "claim", status: 409, message: /done/ },
    { name: "complete a queued document", setup: [], verb: "complete", status: 409, message: /todo/ },
    { name: "release a queued document", setup: [], verb: "release", status: 409, message: /todo/ },
    { name: "complete twice", setup: ["claim", "complete"], verb: "complete", status: 409, message: /done/ },
    { name: "release a done document", setup: ["claim", "complete"], verb: "release", status: 409, message: /done/ },
    { name: "release, then claim again", setup: ["claim", "release"], verb: "claim", status: 200, message: undefined },
  ])("$name → $status", async ({ setup, verb, status, message }) => {
    const { id } = await queue("ana", "alpha", "work");
    for (const step of setup) expect((await as("bo")("POST", `/api/sessions/${id}/${step}`)).status).toBe(200);
    const before = await statusInDb(id);
    const res = await as("bo")("POST", `/api/sessions/${id}/${verb}`);
    expect(res.status).toBe(status);
    if (message) {
      expect(res.json.error.message).toMatch(message);
      expect(await statusInDb(id)).toBe(before);
    }
  });

  it("GET /api/sessions/{id} reads one; unknown or malformed ids → 404 / 400", async () => {
    expect((await as("vi")("GET", "/api/sessions/c-one")).json.session).toMatchObject({ id: "c-one", project: "alpha" });
    expect((await as("ana")("GET", "/api/sessions/nope")).status).toBe(404);
    expect((await as("ana")("GET", "/api/sessions/.hidden")).status).toBe(400);
    expect((await as("ana")("POST", "/api/sessions/a%20b/claim")).status).toBe(400);
  });

  // Several rounds, because one round can pass by luck: a lost race needs two claims in flight at once.
  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])("50 agents claim one document at once (round %i): exactly one 200, 49 × 409", async (round) => {
    const id = `race-${round}`;
    await queue("ana", "alpha", `---\nid: ${id}\n---\ncontended`);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => agent(i)("POST", `/api/sessions/${id}/claim`)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const winner = results.find((r) => r.status === 200)!.json.session.claimedBy.email;
    for (const loser of results.filter((r) => r.status === 409)) {
      expect(loser.json.error.message).toContain(winner);
    }
    expect(await statusInDb(id)).toBe("doing");
  });
});

describe("POST /api/projects/{slug}/sessions/claim (the next one)", () => {
  it("claims in queue order, then 404 with a clear message when nothing is queued", async () => {
    await queue("ana", "gamma", "---\nid: n-low\npriority: low\n---\n");
    await queue("ana", "gamma", "---\nid: n-high\npriority: high\n---\n");
    // gamma also holds the documents of the front matter table above; drain them all.
    const claimed: { id: string; priority: number }[] = [];
    for (;;) {
      const res = await as("ana")("POST", "/api/projects/gamma/sessions/claim");
      if (res.status === 404) {
        expect(res.json.error.message).toMatch(/Nothing is queued in "gamma"/);
        break;
      }
      expect(res.status).toBe(200);
      expect(res.json.session.status).toBe("doing");
      claimed.push(res.json.session);
    }
    const priorities = claimed.map((s) => s.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => a - b));
    expect(claimed.findIndex((s) => s.id === "n-high")).toBeLessThan(claimed.findIndex((s) => s.id === "n-low"));
  });

  it.each([1, 2, 3])("50 agents on a queue of 10 (round %i): each document claimed exactly once, the rest 404", async (round) => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await queue("ana", "queue", `---\nid: q-${round}-${i}\npriority: ${i % 3}\n---\n`)).id);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => agent(i)("POST", "/api/projects/queue/sessions/claim")));
    const won = results.filter((r) => r.status === 200).map((r) => r.json.session.id as string);
    expect(won.sort()).toEqual([...ids].sort());
    expect(results.filter((r) => r.status === 404)).toHaveLength(40);
    const todo = await as("ana")("GET", "/api/projects/queue/sessions?status=todo");
    expect(todo.json.items).toEqual([]);
  });
});

describe("who may read and write session documents", () => {
  type Route = { method: string; path: string; body?: unknown };
  const projectRoutes: Route[] = [
    { method: "GET", path: "/api/projects/{p}/sessions" },
    { method: "POST", path: "/api/projects/{p}/sessions", body: { markdown: "x" } },
    { method: "POST", path: "/api/projects/{p}/sessions/claim" },
  ];
  const sessionRoutes: Route[] = [
    { method: "GET", path: "/api/sessions/{s}" },
    { method: "POST", path: "/api/sessions/{s}/claim" },
    { method: "POST", path: "/api/sessions/{s}/complete" },
    { method: "POST", path: "/api/sessions/{s}/release" },
  ];

  beforeAll(async () => {
    await queue("ana", "alpha", "---\nid: ro-target\n---\n");
  });

  it.each([...projectRoutes, ...sessionRoutes])("a member of another project → 404 on $method $path, nothing changes", async ({ method, path, body }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("bo")(method, path.replace("{p}", "beta").replace("{s}", betaSessionId), body);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
    expect(await tableCounts(databaseUrl)).toEqual(before);
    expect(await statusInDb(betaSessionId)).toBe("todo");
  });

  it.each([...projectRoutes, ...sessionRoutes])("a token limited to another project → 403 on $method $path", async ({ method, path, body }) => {
    const res = await as("anaGammaOnly")(method, path.replace("{p}", "alpha").replace("{s}", "ro-target"), body);
    expect(res.status).toBe(403);
  });

  const writes = [...projectRoutes, ...sessionRoutes].filter((r) => r.method !== "GET");

  it.each(writes)("a read token → 403 on $method $path, nothing changes", async ({ method, path, body }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("anaRead")(method, path.replace("{p}", "alpha").replace("{s}", "ro-target"), body);
    expect(res.status).toBe(403);
    expect(await tableCounts(databaseUrl)).toEqual(before);
    expect(await statusInDb("ro-target")).toBe("todo");
  });

  it.each(writes)("a viewer → 403 on $method $path, nothing changes", async ({ method, path, body }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("vi")(method, path.replace("{p}", "alpha").replace("{s}", "ro-target"), body);
    expect(res.status).toBe(403);
    expect(await tableCounts(databaseUrl)).toEqual(before);
    expect(await statusInDb("ro-target")).toBe("todo");
  });

  it("a viewer reads the queue and a document", async () => {
    expect((await as("vi")("GET", "/api/projects/alpha/sessions")).status).toBe(200);
    expect((await as("vi")("GET", "/api/sessions/ro-target")).status).toBe(200);
  });
});
