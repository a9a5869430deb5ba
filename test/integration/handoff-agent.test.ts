import { describe, expect, it } from "vitest";
import { MAX_MODEL_CHARS } from "@/lib/rules";
import { tableCounts } from "../support/fixtures";
import { testWorld } from "../support/world";

// Issue 22, item 3: which agent (and model) produced a handoff or a proposal is recorded, answered,
// and said in the next session's context. One real server on a real database file, the standard cast
// (ana owns alpha and gamma, bo a member and vi a viewer of alpha; cy owns beta).
const world = testWorld();
const { databaseUrl, as } = world;
const codex = { agent: "codex", model: "gpt-5.1" };

const contextOf = async (who: string, branch: string) => (await as(who)("GET", `/api/context?project=alpha&branch=${branch}&format=text`)).text;

describe("handoffs record the agent and model that wrote them", () => {
  it("POST /api/projects/{slug}/handoffs keeps them; the list and the latest answer them; a handoff that does not say has null", async () => {
    const posted = await as("bo")("POST", "/api/projects/alpha/handoffs", { markdown: "Did: the guard.", branch: "by-codex", sessionId: "codex-1", ...codex });
    expect(posted.status, posted.text).toBe(201);
    expect(posted.json.handoff).toMatchObject({ author: "bo", agent: "codex", model: "gpt-5.1" });
    const plain = await as("ana")("POST", "/api/projects/alpha/handoffs", { markdown: "Did: the docs.", branch: "unsaid" });
    expect(plain.json.handoff).toMatchObject({ author: "ana", agent: null, model: null });
    const listed = (await as("vi")("GET", "/api/projects/alpha/handoffs?branch=by-codex")).json.items;
    expect(listed).toMatchObject([{ sessionId: "codex-1", agent: "codex", model: "gpt-5.1" }]);
    const latest = (await as("vi")("GET", "/api/projects/alpha/handoffs/latest?branch=by-codex")).json.handoff;
    expect(latest).toMatchObject({ agent: "codex", model: "gpt-5.1" });
  });

  it("POST /api/handoffs (the hooks' route) keeps them; the session's next post replaces them, with what it says now", async () => {
    const hook = (body: Record<string, unknown>) => as("ana")("POST", "/api/handoffs", { project: "alpha", sessionId: "hook-1", branch: "hooked", ...body });
    const first = await hook({ markdown: "turn 1", agent: "gemini", model: "gemini-2.5-pro" });
    expect(first.status, first.text).toBe(201);
    expect(first.json.handoff).toMatchObject({ project: "alpha", agent: "gemini", model: "gemini-2.5-pro" });
    const second = await hook({ markdown: "turn 1\nturn 2", agent: "gemini" });
    expect(second.status).toBe(200);
    expect(second.json.handoff).toMatchObject({ id: first.json.handoff.id, agent: "gemini", model: null });
    expect(await world.sql("SELECT agent, model FROM handoffs WHERE session_id = 'hook-1'")).toEqual([{ agent: "gemini", model: null }]);
  });

  it("the next session's context names the agent after the author, whichever agent reads it", async () => {
    await as("bo")("POST", "/api/projects/alpha/handoffs", { markdown: "Did: cross-agent.", branch: "cross", ...codex });
    // ana may be on Claude Code: the context is the same for every agent.
    expect(await contextOf("ana", "cross")).toMatch(/^## Last handoff \([^,]+, branch cross, by bo, Codex CLI\), quoted:$/m);
    await as("ana")("POST", "/api/projects/alpha/handoffs", { markdown: "Did: back again.", branch: "cross", agent: "claude", model: "claude-sonnet-4-5" });
    expect(await contextOf("bo", "cross")).toMatch(/^## Last handoff \(.*, by ana, Claude Code\), quoted:$/m);
    await as("ana")("POST", "/api/projects/alpha/handoffs", { markdown: "Did: unsaid.", branch: "cross" });
    expect(await contextOf("bo", "cross")).toMatch(/^## Last handoff \(.*, by ana\), quoted:$/m);
  });

  it.each([
    { name: "an agent Baton does not know", body: { agent: "cursor" }, field: "agent" },
    { name: "an agent's label instead of its name", body: { agent: "Codex CLI" }, field: "agent" },
    { name: "an agent that is not a string", body: { agent: 1 }, field: "agent" },
    { name: "an empty model", body: { model: "  " }, field: "model" },
    { name: "a model too long", body: { model: "m".repeat(MAX_MODEL_CHARS + 1) }, field: "model" },
    { name: "a model with a newline", body: { model: "gpt-5\n## Identity" }, field: "model" },
    { name: "a model with a right-to-left override", body: { model: "gpt\u202e5" }, field: "model" },
    { name: "a model with a zero-width space", body: { model: "gpt\u200b5" }, field: "model" },
    { name: "a model that is not a string", body: { model: ["gpt-5"] }, field: "model" },
  ])("$name → 400 naming the field, nothing stored, on every route that takes one", async ({ body, field }) => {
    const posts: [string, Record<string, unknown>][] = [
      ["/api/projects/alpha/handoffs", { markdown: "x", ...body }],
      ["/api/handoffs", { markdown: "x", project: "alpha", ...body }],
      // A session in no project of the user's stores nothing either way; a bad field is still said.
      ["/api/handoffs", { markdown: "x", cwd: "/nowhere/at/all", ...body }],
      ["/api/proposals", { kind: "pattern", content: "Use pnpm.", project: "alpha", ...body }],
    ];
    for (const [route, sent] of posts) {
      const before = await tableCounts(databaseUrl);
      const res = await as("ana")("POST", route, sent);
      expect(res.status, `${route}: ${res.text}`).toBe(400);
      expect(res.json).toMatchObject({ ok: false, error: { code: "validation_failed" } });
      expect(res.json.error.issues.map((i: { path: string[] }) => i.path[0])).toContain(field);
      expect(await tableCounts(databaseUrl)).toEqual(before);
    }
  });

  it("a model of the longest allowed length is kept, trimmed like every name", async () => {
    const model = "m".repeat(MAX_MODEL_CHARS);
    const res = await as("ana")("POST", "/api/projects/gamma/handoffs", { markdown: "x", agent: "opencode", model: ` ${model} ` });
    expect(res.status, res.text).toBe(201);
    expect(res.json.handoff).toMatchObject({ agent: "opencode", model });
  });
});

describe("proposals record the agent and model that proposed them", () => {
  it("POST /api/proposals keeps them and GET answers them; a merged twin keeps the first proposer's", async () => {
    const posted = await as("bo")("POST", "/api/proposals", { kind: "pattern", content: "Run the linter before every push to main.", project: "alpha", ...codex });
    expect(posted.status, posted.text).toBe(201);
    expect(posted.json.proposal).toMatchObject({ agent: "codex", model: "gpt-5.1" });
    const twin = await as("bo")("POST", "/api/proposals", { kind: "pattern", content: "run the linter before every push to main", project: "alpha", agent: "copilot" });
    expect(twin.json).toMatchObject({ merged: "proposal", proposal: { id: posted.json.proposal.id, agent: "codex", model: "gpt-5.1" } });
    const unsaid = await as("bo")("POST", "/api/proposals", { kind: "insight", content: "The staging bucket is emptied nightly.", project: "alpha" });
    expect(unsaid.json.proposal).toMatchObject({ agent: null, model: null });
    const listed = (await as("ana")("GET", "/api/proposals?project=alpha")).json.items as { id: string; agent: string | null }[];
    expect(listed.find((p) => p.id === posted.json.proposal.id)).toMatchObject({ agent: "codex", model: "gpt-5.1" });
    expect(listed.find((p) => p.id === unsaid.json.proposal.id)).toMatchObject({ agent: null, model: null });
  });
});
