import { beforeAll, describe, expect, it } from "vitest";
import { tableCounts } from "../support/fixtures";
import { sessionsTestWorld } from "../support/sessions-world";

// Queueing session documents, listing the queue, and claiming the next one (see sessionsTestWorld).
const { world, agent, queue } = sessionsTestWorld();
const { databaseUrl, as } = world;
const pause = (ms = 3) => new Promise((r) => setTimeout(r, ms));

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
        author: "ana",
      },
    });
    const again = await as("bo")("GET", "/api/projects/alpha/sessions/task-368.session_1");
    expect(again.status).toBe(200);
    expect(Buffer.from(again.json.session.markdown)).toEqual(Buffer.from(full));
  });

  it.each([
    { name: "no front matter → defaults", markdown: "Just do the thing.\n", expect: { priority: 2, tags: [], branch: null, specs: [], files: [] } },
    { name: "empty front matter", markdown: "---\n---\nbody", expect: { priority: 2, tags: [] } },
    { name: "CRLF front matter", markdown: "---\r\npriority: low\r\nspecs:\r\n  - a.md\r\n---\r\nbody\r\n", expect: { priority: 3, specs: ["a.md"] } },
    { name: "priority critical", markdown: "---\npriority: critical\n---\nDo it.\n", expect: { priority: 0 } },
    { name: "priority medium, any case", markdown: "---\npriority: Medium\n---\nDo it.\n", expect: { priority: 2 } },
    { name: "integer priority", markdown: "---\npriority: 7\n---\nDo it.\n", expect: { priority: 7 } },
    { name: "null fields are not given", markdown: "---\nbranch:\ntags:\n---\nDo it.\n", expect: { branch: null, tags: [] } },
    { name: "unknown keys of any shape", markdown: "---\nextra: {a: [1, 2]}\n'odd key': yes\n---\nDo it.\n", expect: { priority: 2 } },
    { name: "a numeric id", markdown: "---\nid: 4711\n---\nDo it.\n", expect: { id: "4711" } },
    { name: "a BOM before the front matter", markdown: "\uFEFF---\npriority: low\n---\nDo it.\n", expect: { priority: 3 } },
  ])("$name", async ({ markdown, expect: fields }) => {
    const session = await queue("ana", "gamma", markdown);
    expect(session).toMatchObject(fields);
    expect(session.markdown).toBe(markdown);
    expect(session.id).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/);
  });

  it("an id taken in the project → 409 and nothing stored; the same id in another project is that project's own", async () => {
    const before = await tableCounts(databaseUrl);
    const res = await as("ana")("POST", "/api/projects/alpha/sessions", { markdown: "---\nid: task-368.session_1\n---\nagain" });
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe("conflict");
    expect(res.json.error.message).toContain("task-368.session_1");
    expect(await tableCounts(databaseUrl)).toEqual(before);
    const elsewhere = await as("ana")("POST", "/api/projects/gamma/sessions", { markdown: "---\nid: task-368.session_1\n---\nagain" });
    expect(elsewhere.status, elsewhere.text).toBe(201);
    expect(elsewhere.json.session).toMatchObject({ id: "task-368.session_1", project: "gamma", markdown: "---\nid: task-368.session_1\n---\nagain" });
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

  it.each([
    { name: "front matter alone", markdown: "---\nid: fm-only\npriority: high\nfiles: [a.ts]\n---\n" },
    { name: "front matter and blank lines", markdown: "---\nid: fm-blank\n---\n  \n\t\n\n" },
    { name: "front matter without a final newline", markdown: "---\nid: fm-eof\n---" },
    { name: "CRLF front matter alone", markdown: "---\r\nid: fm-crlf\r\n---\r\n\r\n" },
  ])("an empty session document ($name) → 400 saying so, nothing stored", async ({ markdown }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("ana")("POST", "/api/projects/alpha/sessions", { markdown });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error).toMatchObject({ code: "validation_failed", issues: [{ path: ["markdown"], code: "empty_session_document" }] });
    expect(res.json.error.message).toMatch(/nothing below it/);
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });
});

describe("GET /api/projects/{slug}/sessions", () => {
  const expected: string[] = [];

  beforeAll(async () => {
    // Posted out of order; the queue is priority first, then age (front matter created_at or arrival).
    const docs = [
      ["o-low", "---\nid: o-low\npriority: low\n---\nDo it.\n"],
      ["o-crit", "---\nid: o-crit\npriority: critical\n---\nDo it.\n"],
      ["o-med-new", "---\nid: o-med-new\ncreated_at: 2025-03-01T00:00:00Z\n---\nDo it.\n"],
      ["o-med-old", "---\nid: o-med-old\ncreated_at: 2025-02-01T00:00:00Z\n---\nDo it.\n"],
      ["o-high", "---\nid: o-high\npriority: 1\n---\nDo it.\n"],
      ["o-ten", "---\nid: o-ten\npriority: 10\n---\nDo it.\n"],
      ["o-neg", "---\nid: o-neg\npriority: -1\n---\nDo it.\n"],
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

describe("POST /api/projects/{slug}/sessions/claim (the next one)", () => {
  it("claims in queue order, then 404 with a clear message when nothing is queued", async () => {
    await queue("ana", "gamma", "---\nid: n-low\npriority: low\n---\nDo it.\n");
    await queue("ana", "gamma", "---\nid: n-high\npriority: high\n---\nDo it.\n");
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
    for (let i = 0; i < 10; i++) ids.push((await queue("ana", "queue", `---\nid: q-${round}-${i}\npriority: ${i % 3}\n---\nDo it.\n`)).id);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => agent(i)("POST", "/api/projects/queue/sessions/claim")));
    const won = results.filter((r) => r.status === 200).map((r) => r.json.session.id as string);
    expect(won.sort()).toEqual([...ids].sort());
    expect(results.filter((r) => r.status === 404)).toHaveLength(40);
    const todo = await as("ana")("GET", "/api/projects/queue/sessions?status=todo");
    expect(todo.json.items).toEqual([]);
  });
});
