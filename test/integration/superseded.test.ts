import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionPrincipal } from "@/lib/auth/principal";
import { openDatabase } from "@/lib/db/client";
import { reviewQueue } from "@/lib/proposals/review-queue";
import { undoDecisions } from "@/lib/proposals/undo-decision";
import { waitFor } from "../fixtures/cli/cli-env";
import { startFakeEmbedder, type FakeEmbedder } from "../support/fake-embedder";
import { tableCounts } from "../support/fixtures";
import { toolText } from "../support/mcp";
import { emailOf, startWorld, type World } from "../support/world";

// Superseding: accepting a proposal marks older learnings of its scope superseded. They stay listed
// and searchable, marked with what replaced them, and no path into a context brings them back: BM25,
// vector nearest (an embedder is configured), recent fill, pinned. ana owns web and other, bo is a
// member of web; cy owns beta.
let embedder: FakeEmbedder;
let world: World;
const ids: Record<string, string> = {};
const OLD = "Deploys go through the staging bucket before production";
const OLD_PINNED = "Deploys are announced in the staging channel first";

const api = (who: string) => world.as(who);
const propose = async (content: string, project?: string) => {
  const res = await api("ana")("POST", "/api/proposals", { kind: "pattern", content, ...(project ? { project } : {}) });
  expect(res.status, res.text).toBe(201);
  return res.json.proposal.id as string;
};
const context = async (query: string) => (await api("ana")("GET", `/api/context?project=web&${query}`)).json.context as string;
const superseded = async () => (await world.sql("SELECT id FROM learnings WHERE superseded_at IS NOT NULL ORDER BY id")).map((r) => String(r.id));
const userId = async (user: string) => String((await world.sql("SELECT id FROM users WHERE email = ?", [emailOf(user)]))[0]!.id);

beforeAll(async () => {
  embedder = await startFakeEmbedder();
  world = await startWorld({
    users: ["ana", "bo", "cy"],
    projects: { web: "ana", other: "ana", beta: "cy" },
    members: [{ project: "web", user: "bo", role: "member" }],
    tokens: {},
    tempPrefix: "baton-superseded-",
    env: { EMBEDDINGS_URL: embedder.url, EMBEDDINGS_MODEL: "fake-16" },
  });
  const learnings = [
    ["old", "ana", { kind: "pattern", content: OLD, project: "web", confirmed: true, tags: ["deploy"] }],
    ["oldPinned", "ana", { kind: "pattern", content: OLD_PINNED, project: "web", confirmed: true, pinned: true }],
    ["unrelated", "ana", { kind: "insight", content: "The session cookie is refreshed once a day", project: "web", confirmed: true }],
    ["otherProject", "ana", { kind: "pattern", content: "Deploys of the other project go through the staging bucket", project: "other" }],
    ["personal", "ana", { kind: "pattern", content: "My deploys go through the staging bucket too", confirmed: true }],
    ["beta", "cy", { kind: "pattern", content: "Beta deploys go through the staging bucket", project: "beta" }],
  ] as const;
  for (const [key, who, body] of learnings) {
    const res = await api(who)("POST", "/api/learnings", body);
    expect(res.status, res.text).toBe(201);
    ids[key] = res.json.learning.id;
  }
  await waitFor("every learning embedded", async () => Number((await world.sql("SELECT count(*) AS n FROM learning_vectors").catch(() => [{ n: 0 }]))[0]!.n) >= learnings.length);
}, 180_000);
afterAll(async () => {
  await world?.stop();
  await embedder?.stop();
});

describe("superseding", () => {
  let proposal: string;
  let replacement: string;

  it("the review queue offers the similar learnings of the proposal's scope, and only those", async () => {
    proposal = await propose("Deploys now skip the staging bucket and go straight to production", "web");
    const db = openDatabase(world.databaseUrl);
    try {
      const queue = await reviewQueue(db.db, sessionPrincipal(await userId("ana")), { sort: "newest" });
      const item = queue.items.find((p) => p.id === proposal)!;
      expect(item.similar.map((l) => l.id)).toContain(ids.old);
      for (const id of [ids.unrelated, ids.otherProject, ids.personal, ids.beta]) expect(item.similar.map((l) => l.id)).not.toContain(id);
    } finally {
      db.client.close();
    }
  });

  it.each([
    { name: "another user's project learning", key: "beta", status: 404 },
    { name: "a learning of another project", key: "otherProject", status: 400 },
    { name: "a personal learning", key: "personal", status: 400 },
  ])("accepting with supersedes naming $name → $status, nothing changed", async ({ key, status }) => {
    const before = await tableCounts(world.databaseUrl);
    const res = await api("ana")("POST", `/api/proposals/${proposal}/accept`, { supersedes: [ids.old, ids[key]] });
    expect(res.status, res.text).toBe(status);
    expect(res.json.ok).toBe(false);
    expect(await tableCounts(world.databaseUrl)).toEqual(before);
    expect(await superseded()).toEqual([]);
    expect((await api("ana")("GET", "/api/proposals?status=pending&project=web")).json.items.map((p: { id: string }) => p.id)).toContain(proposal);
  });

  it("a personal proposal cannot supersede a project's learning; a rejection supersedes nothing", async () => {
    const personal = await propose("Deploys skip the staging bucket for my side projects");
    const before = await tableCounts(world.databaseUrl);
    expect((await api("ana")("POST", `/api/proposals/${personal}/accept`, { supersedes: [ids.old] })).status).toBe(400);
    expect((await api("ana")("POST", "/api/proposals/review", [{ id: personal, action: "reject", supersedes: [ids.personal] }])).status).toBe(400);
    expect((await api("ana")("POST", `/api/proposals/${personal}/accept`, { supersedes: [ids.personal, ids.personal] })).status).toBe(400);
    expect(await tableCounts(world.databaseUrl)).toEqual(before);
    expect(await superseded()).toEqual([]);
  });

  it("before: the old learnings are in the context (matched strongly, and pinned)", async () => {
    const ctx = await context("q=deploys+staging+bucket+production");
    expect(ctx).toContain(OLD);
    expect(ctx).toContain(`${OLD_PINNED} (pinned)`);
  });

  it("a member accepts with supersedes: the old learnings are marked, with what replaced them", async () => {
    const res = await api("bo")("POST", `/api/proposals/${proposal}/accept`, { supersedes: [ids.old, ids.oldPinned] });
    expect(res.status, res.text).toBe(200);
    replacement = res.json.learning.id;
    expect(res.json.superseded.sort()).toEqual([ids.old, ids.oldPinned].sort());
    expect((await api("ana")("GET", `/api/learnings/${ids.old}`)).json.learning).toMatchObject({ supersededAt: expect.any(String), supersededBy: replacement });
    const trail = (await api("ana")("GET", "/api/projects/web/audit")).json.items.filter((e: { action: string }) => e.action === "supersede");
    expect(trail.map((e: { subject: { id: string } }) => e.subject.id).sort()).toEqual([ids.old, ids.oldPinned].sort());
    expect(trail[0]).toMatchObject({ detail: `superseded by learning ${replacement}`, actor: { name: "bo" } });
    // Superseded already: refused, nothing changed.
    const again = await propose("Deploys skip the staging bucket on hotfix days", "web");
    expect((await api("ana")("POST", `/api/proposals/${again}/accept`, { supersedes: [ids.old] })).status).toBe(409);
    expect((await api("ana")("GET", "/api/learnings?q=hotfix")).json.items).toEqual([]);
  });

  it("after: never injected, by BM25, vectors, recent fill or pinning, however well they match", async () => {
    for (const query of ["q=deploys+staging+bucket+production", "q=" + encodeURIComponent("release rollout"), "", "budget=32000&maxChars=100000"]) {
      const ctx = await context(query);
      expect(ctx, query).not.toContain(OLD);
      expect(ctx, query).not.toContain(OLD_PINNED);
    }
    expect(await context("q=deploys+staging+bucket+production")).toContain("Deploys now skip the staging bucket");
  });

  it("still listed and searchable, marked, in the API and in MCP", async () => {
    const found = (await api("ana")("GET", "/api/learnings?q=staging+bucket")).json.items;
    expect(found.find((l: { id: string }) => l.id === ids.old)).toMatchObject({ supersededBy: replacement, supersededAt: expect.any(String) });
    const client = new Client({ name: "baton-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${world.server.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${world.tokens.ana}` } } }));
    try {
      const res = (await client.callTool({ name: "search_learnings", arguments: { query: "staging bucket", project: "web" } })) as CallToolResult;
      expect(toolText(res)).toContain(`${OLD} (id ${ids.old}) — superseded by ${replacement}: "Deploys now skip the staging bucket and go straight to production", no longer in use`);
    } finally {
      await client.close();
    }
  });

  it("PATCH superseded: false puts one back in use (audited); true is refused", async () => {
    expect((await api("ana")("PATCH", `/api/learnings/${ids.old}`, { superseded: true })).status).toBe(400);
    const res = await api("ana")("PATCH", `/api/learnings/${ids.old}`, { superseded: false });
    expect(res.json.learning).toMatchObject({ supersededAt: null, supersededBy: null });
    expect(await context("q=deploys+staging+bucket+production")).toContain(OLD);
    const [latest] = (await api("ana")("GET", "/api/projects/web/audit")).json.items;
    expect(latest).toMatchObject({ action: "supersede", subject: { id: ids.old }, detail: "no longer superseded", actor: { name: "ana" } });
  });

  it("undoing the accept gives back what it superseded", async () => {
    expect(await superseded()).toEqual([ids.oldPinned]);
    const db = openDatabase(world.databaseUrl);
    try {
      // bo accepted it: an undo is the decider's (lib/proposals/undo-decision.ts).
      expect(await undoDecisions(db.db, sessionPrincipal(await userId("bo")), [{ id: proposal }])).toBe(1);
    } finally {
      db.client.close();
    }
    expect(await superseded()).toEqual([]);
    expect((await api("ana")("GET", `/api/learnings/${replacement}`)).status).toBe(404);
    expect(await context("")).toContain(`${OLD_PINNED} (pinned)`);
  });
});
