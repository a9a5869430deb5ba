import { sideClient } from "../support/side-db";
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { countTokens } from "@/lib/context/pack/tokenizer";
import { CLAUDE_CODE_MAX_CHARS } from "@/lib/rules";
import { apiClient } from "../support/api";
import { ROOT, startServer } from "../support/server";
import { testWorld } from "../support/world";
import { learningSectionLines } from "../support/context-text";

// ana owns web and other; new has no project yet.
const world = testWorld({ users: ["ana", "new"], projects: { web: "ana", other: "ana" }, members: [], tokens: {} });
const { databaseUrl, tokens, as } = world;

/** Contexts in the served log that were served from `ms` on (the log is written behind, about a second later). */
async function loggedSince(ms: number): Promise<number> {
  const db = sideClient(databaseUrl);
  try {
    return Number((await db.execute({ sql: "SELECT count(*) AS n FROM context_log WHERE created_at >= ?", args: [ms] })).rows[0]!.n);
  } finally {
    db.close();
  }
}
const [ana, fresh] = [as("ana"), as("new")];

beforeAll(async () => {
  const seed = JSON.parse(readFileSync(path.join(ROOT, "test/fixtures/seed.json"), "utf8"));
  expect((await ana("POST", "/api/seed/import", seed)).status).toBe(200);
  const learnings = [
    { kind: "pattern", content: "Run database migrations before starting the dev server", project: "web", confirmed: true, tags: ["db"] },
    { kind: "insight", content: "The session cookie is refreshed once a day by better-auth", project: "web", confirmed: true, tags: ["auth"] },
    { kind: "insight", content: "Secret of the other project: never shown in web", project: "other", confirmed: true },
    { kind: "pattern", content: "Auth tokens are hashed with SHA-256 before storage", project: "web", confirmed: false, tags: ["auth", "security"] },
  ];
  for (const l of learnings) expect((await ana("POST", "/api/learnings", l)).status).toBe(201);
  expect((await ana("POST", "/api/projects/web/handoffs", { markdown: "Did: login form.\nNext: token revoke.", branch: "main", sessionId: "s1" })).status).toBe(201);
  expect((await ana("POST", "/api/projects/web/handoffs", { markdown: "Did: refresh tokens on feat/auth.", branch: "feat/auth", sessionId: "s2" })).status).toBe(201);
  expect((await ana("PUT", "/api/projects/web/tasks/task-368/memory", { markdown: "# Token revocation\n\n- [x] list tokens\n- [ ] revoke button" })).status).toBe(200);
  expect((await ana("PUT", "/api/projects/web/active-task", { taskId: "task-368" })).status).toBe(200);
  expect((await ana("POST", "/api/proposals", { kind: "pattern", content: "Prefer server actions for dashboard mutations", project: "web", confidence: 0.66 })).status).toBe(201);
});

describe("GET /api/context", () => {
  it("answers the hooks' fetch (which asks for gzip) uncompressed, while pages stay compressed", async () => {
    // The hooks' fetch is Node's, as this test's: it sends accept-encoding: gzip, deflate by itself.
    for (const path of ["/api/context?project=web&format=claude&q=auth+tokens", "/api/context/prompt?project=web&sessionId=gz-1&q=how+are+auth+tokens+hashed"]) {
      const res = await ana("GET", path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-encoding")).toBeNull();
      expect(res.headers.get("cache-control")).toMatch(/, no-transform$/);
    }
    const page = await fetch(`${world.server.url}/login`, { headers: { "accept-encoding": "gzip" } });
    expect([page.status, page.headers.get("content-encoding")]).toEqual([200, "gzip"]);
  });

  it("serves every section in order, within budget, counted by the real tokenizer", async () => {
    const res = await ana("GET", "/api/context?project=web&branch=main&q=auth+tokens");
    expect(res.status).toBe(200);
    const body = res.json;
    expect(body).toMatchObject({ ok: true, budget: 2000, needsSetup: false, project: { slug: "web", name: "WEB" }, proposalCount: 2 });
    expect(body.tokenEstimate).toBe(countTokens(body.context));
    expect(body.tokenEstimate).toBeLessThanOrEqual(2000);
    expect(body.context.length).toBeLessThanOrEqual(9500);
    const headings = [...body.context.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    expect(headings[0]).toBe("Identity");
    expect(headings[1]).toMatch(/^Active task: task-368, memory \(by (you|ana), updated (just now|\d+ min ago)\), quoted:$/);
    expect(headings[2]).toMatch(/^Last handoff \((just now|\d+ min ago), branch main, by ana\), quoted:$/);
    expect(headings[3]).toMatch(/^Relevant learnings \(\d+\/\d+\)$/);
    expect(headings[4]).toBe("Pending proposals (2)");
    expect(headings[5]).toBe("Session state");
    expect(body.sections.map((s: { name: string }) => s.name)).toEqual(["identity", "task", "handoff", "learnings", "proposals", "state"]);
    expect(body.context).toContain("AI name: Ivy · principal: Jens-Christian");
    expect(body.context).toContain("Did: login form.");
    expect(body.context).toMatch(/^- [0-9a-f]{5} pattern "Prefer server actions for dashboard muta…" 0\.66$/m);
  });

  it("session state counts by kind what the context draws from, with the seed's version; identity has the voice", async () => {
    const state = (text: string) => text.slice(text.indexOf("## Session state")).split("\n\n")[0]!.split("\n");
    const web = (await ana("GET", "/api/context?project=web&format=text")).text;
    // 2 patterns, 1 insight and 1 self-knowledge from the seed, 2 patterns and 1 insight of web; never other's insight.
    expect(state(web)).toEqual([
      "## Session state",
      // ana posted a handoff in this file a moment ago: later than the seed's imported 2026-01-10.
      "Last session: just now",
      "Learnings: 4 patterns, 2 insights, 1 self-knowledge",
      "Active projects: pai-seed, blog",
      "Checkpoint: checkpoints/2026-01-10.json",
      "Queued sessions in web: 0",
      "Seed version: 1.0.0",
    ]);
    expect(web).toContain("\nVoice: pNInz6obpgDQGcFmaJgB\n");
    const personal = (await ana("GET", "/api/context?format=text")).text;
    expect(state(personal)).toContain("Learnings: 2 patterns, 1 insight, 1 self-knowledge");
    // No seed yet: nothing stored, and no version to show.
    const none = (await fresh("GET", "/api/context?format=text")).text;
    expect(state(none)).toContain("Learnings: none stored");
    // fresh's first context: the setup note, this once.
    expect(none).toContain("baton import seed.json");
    expect(none).not.toContain("Seed version");
  });

  it("ranks learnings that match the hints first, never shows another project's", async () => {
    const body = (await ana("GET", "/api/context?project=web&q=auth+tokens+hashed")).json;
    const lines = learningSectionLines(body.context as string);
    expect(lines[0]).toContain("hashed with SHA-256");
    expect(body.context).not.toContain("Secret of the other project");
    expect(body.learningsShown).toBeGreaterThan(0);
    expect(body.learningsTotal).toBe(7); // 4 personal from the seed + 3 of web
  });

  it("without usable hints falls back to recent learnings, confirmed first", async () => {
    // A task with no memory and a number for an id gives nothing to search for.
    const body = (await ana("GET", "/api/context?project=web&task=task-999")).json;
    expect(body.context).toMatch(/## Recent learnings \(\d+\/7\)/);
  });

  it("prefers the handoff of the same branch, else the newest", async () => {
    expect((await ana("GET", "/api/context?project=web&branch=feat/auth&format=text")).text).toContain("Did: refresh tokens on feat/auth.");
    expect((await ana("GET", "/api/context?project=web&branch=nope&format=text")).text).toContain("Did: refresh tokens on feat/auth.");
    expect((await ana("GET", "/api/context?project=web&branch=main&format=text")).text).toContain("Did: login form.");
  });

  it("after compact, task memory and handoff lead", async () => {
    const text = (await ana("GET", "/api/context?project=web&source=compact&format=text")).text;
    expect(text.indexOf("## Active task")).toBe(0);
    expect(text.indexOf("## Last handoff")).toBeLessThan(text.indexOf("## Identity"));
  });

  it("complement mode leaves identity out", async () => {
    const body = (await ana("GET", "/api/context?project=web&mode=complement")).json;
    expect(body.context).not.toContain("## Identity");
    expect(body.sections.map((s: { name: string }) => s.name)).not.toContain("identity");
  });

  it("formats: text is the context alone, claude is the SessionStart hook JSON", async () => {
    const json = (await ana("GET", "/api/context?project=web&branch=main")).json;
    const text = await ana("GET", "/api/context?project=web&branch=main&format=text");
    expect(text.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(text.text).toBe(json.context);
    const claude = await ana("GET", "/api/context?project=web&branch=main&format=claude");
    expect(claude.json).toEqual({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: json.context } });
  });

  it("format=claude never passes Claude Code's 10,000 characters, whatever maxChars asks; other formats may", async () => {
    for (let i = 0; i < 40; i++) {
      const content = `Deploy step ${i}: the release job of other runs migrations, then rolls the canary for ${i + 5} minutes; ${"the rollback keeps the previous image tagged, ".repeat(6)}`;
      expect((await ana("POST", "/api/learnings", { kind: "pattern", content, project: "other", confirmed: true })).status).toBe(201);
    }
    const wide = "/api/context?project=other&q=deploy+release+migrations&budget=32000&maxChars=200000";
    const json = (await ana("GET", wide)).json;
    expect(json.context.length).toBeGreaterThan(CLAUDE_CODE_MAX_CHARS);
    const claude = (await ana("GET", `${wide}&format=claude`)).json.hookSpecificOutput.additionalContext as string;
    expect(claude.length).toBeLessThanOrEqual(CLAUDE_CODE_MAX_CHARS);
    expect(claude).toContain("## Relevant learnings");
  });

  it("is byte-identical for the same state and query, with an ETag that answers 304", async () => {
    const a = await ana("GET", "/api/context?project=web&q=auth");
    const b = await ana("GET", "/api/context?project=web&q=auth");
    expect(b.text).toBe(a.text);
    const etag = a.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(a.json.etag).toBe(etag);
    const cached = await ana("GET", "/api/context?project=web&q=auth", undefined, { "if-none-match": etag });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe("");
    expect((await ana("GET", "/api/context?project=web&q=auth", undefined, { "if-none-match": "*" })).status).toBe(304);
    // Another query whose context differs ("other" matches nothing in web: its context is auth's, the task's "token" and its tags' feedback).
    expect((await ana("GET", "/api/context?project=web&q=migrations", undefined, { "if-none-match": etag })).status).toBe(200);
  });

  it("reading writes only bookkeeping: last-injected times and the served log", async () => {
    const since = Date.now();
    await ana("GET", "/api/context?project=web&q=migrations");
    // The bookkeeping is buffered and written about a second after the response: poll for it. The
    // earlier tests' entries may land meanwhile; they were served before `since`.
    await expect.poll(() => loggedSince(since), { timeout: 15_000 }).toBe(1);
    const db = sideClient(databaseUrl);
    const injected = await db.execute("SELECT last_injected_at FROM learnings WHERE content LIKE 'Run database migrations%'");
    db.close();
    expect(injected.rows[0]!.last_injected_at).not.toBeNull();
  });

  it.each([200, 350, 800, 4000, 32000])("budget %d holds, for tokens and characters", async (budget) => {
    const body = (await ana("GET", `/api/context?project=web&budget=${budget}&maxChars=${budget * 2}&q=auth`)).json;
    expect(body.tokenEstimate).toBeLessThanOrEqual(budget);
    expect(body.context.length).toBeLessThanOrEqual(budget * 2);
    expect(body.tokenEstimate).toBe(countTokens(body.context));
  });

  it("never serves a stale context: a change through another instance on the same database shows at once", async () => {
    const second = await startServer({ databaseUrl });
    try {
      const other = apiClient(second.url, tokens.ana);
      const before = (await ana("GET", "/api/context?project=web&q=kubernetes&format=text")).text;
      expect(before).not.toContain("Kubernetes pods");
      expect((await other("POST", "/api/learnings", { kind: "insight", content: "Kubernetes pods restart when memory limits are hit", project: "web" })).status).toBe(201);
      expect((await ana("GET", "/api/context?project=web&q=kubernetes&format=text")).text).toContain("Kubernetes pods");
      expect((await other("PUT", "/api/projects/web/tasks/task-368/memory", { markdown: "# Token revocation\n\n- [x] revoke button" })).status).toBe(200);
      expect((await ana("GET", "/api/context?project=web&format=text")).text).toContain("- [x] revoke button");
      // Bookkeeping alone (last-injected times) does not change what is served.
      const since = Date.now();
      const a = await ana("GET", "/api/context?project=web&q=kubernetes");
      await expect.poll(() => loggedSince(since), { timeout: 15_000 }).toBe(1);
      expect((await ana("GET", "/api/context?project=web&q=kubernetes")).text).toBe(a.text);
    } finally {
      await second.stop();
    }
  });

  it("first run: needsSetup until an identity is set; the setup note was in the first context only", async () => {
    const body = (await fresh("GET", "/api/context")).json;
    expect(body.needsSetup).toBe(true);
    expect(body.context).not.toContain("baton import seed.json");
    expect(body.project).toBeNull();
  });

  it.each([
    "budget=100",
    "budget=40000",
    "budget=lots",
    "mode=partial",
    "format=xml",
    "source=reboot",
    "project=Not_A_Slug",
    "task=../etc",
  ])("bad query %s → 400", async (query) => {
    const res = await ana("GET", `/api/context?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("validation_failed");
  });

  it("another user's project → 404; no token → 401", async () => {
    expect((await fresh("GET", "/api/context?project=web")).status).toBe(404);
    expect((await apiClient(world.server.url)("GET", "/api/context")).status).toBe(401);
  });
});
