import { beforeAll, describe, expect, it } from "vitest";
import { toolText } from "../support/mcp";
import { mcpTestWorld } from "../support/mcp-world";

// Issue 21, "Team-written text is fenced": a learning someone else wrote names who wrote it, in the
// session-start context (whichever read found it: the search, the newest, the pinned), the prompt stage
// and MCP's search_learnings. The reader's own learnings carry no byline. Issue 27: any learning's age
// is marked once it is over 90 days old, and every learning records where it came from (provenance).

const { world, call } = mcpTestWorld();
const bo = world.as("bo");
const ana = world.as("ana");

const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
/** ana's own, from the shared world's setup. */
const ANA_LINE = /^- Run database migrations before starting the dev server(?: \([\d.]+\))?$/m;

beforeAll(async () => {
  const writes = [
    { kind: "pattern", content: "Quokka deploys need the staging bucket warmed first", project: "alpha", confirmed: true, createdAt: daysAgo(3) },
    { kind: "insight", content: "Pelican builds cache the wombat layer", project: "alpha", confirmed: true, pinned: true, createdAt: daysAgo(3) },
    { kind: "pattern", content: "Narwhal exports run on the old cron host", project: "alpha", confirmed: true, createdAt: daysAgo(125) },
  ];
  for (const body of writes) {
    const res = await bo("POST", "/api/learnings", body);
    expect(res.status, res.text).toBe(201);
  }
});

describe("a teammate's learning names its writer, a stale one its age; the reader's own no writer", () => {
  it.each([
    ["found by the hints' search", "q=quokka+staging+database+migrations", /^- Quokka deploys need the staging bucket warmed first \([\d.]+, by bo\)$/m],
    ["among the newest (no hints)", "", /^- Quokka deploys need the staging bucket warmed first \(by bo\)$/m],
    ["pinned", "", /^- Pelican builds cache the wombat layer \(pinned, by bo\)$/m],
    ["over 90 days old: its age", "q=narwhal+exports+cron", /^- Narwhal exports run on the old cron host \([\d.]+, by bo, 4mo\)$/m],
  ])("in the session-start context: %s", async (_name, query, bosLine) => {
    const res = await ana("GET", `/api/context?project=alpha&format=text&budget=4000${query ? `&${query}` : ""}`);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(bosLine);
    expect(res.text).toMatch(ANA_LINE);
  });

  it("in bo's own context, his learnings carry nothing and ana's name her", async () => {
    const res = await bo("GET", "/api/context?project=alpha&format=text&budget=4000");
    expect(res.text).toMatch(/^- Quokka deploys need the staging bucket warmed first$/m);
    expect(res.text).toMatch(/^- Narwhal exports run on the old cron host \(4mo\)$/m);
    expect(res.text).toMatch(/^- Run database migrations before starting the dev server \(by ana\)$/m);
  });

  it("in the prompt stage", async () => {
    const query = new URLSearchParams({ sessionId: "writers-1", project: "alpha", q: "are quokka deploys waiting on the staging bucket", format: "text" });
    const res = await ana("GET", `/api/context/prompt?${query}`);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^- Quokka deploys need the staging bucket warmed first \([\d.]+, by bo\)$/m);
  });

  it("in MCP's search_learnings", async () => {
    const result = await call("ana", "search_learnings", { project: "alpha" });
    const text = toolText(result);
    expect(text).toMatch(/^- \[pattern · alpha · confirmed · by bo\] Quokka deploys need the staging bucket warmed first \(id /m);
    expect(text).toMatch(/^- \[pattern · alpha · confirmed · by bo · 4mo\] Narwhal exports run on the old cron host \(id /m);
    expect(text).toMatch(/^- \[pattern · alpha · confirmed\] Run database migrations before starting the dev server \(id /m);
  });
});

describe("every learning records where it came from (issue 27)", () => {
  it("accepted from a proposal: who proposed it, with which agent and model, in which session, who accepted and edited it", async () => {
    const proposed = await bo("POST", "/api/proposals", {
      kind: "insight",
      content: "Ocelot jobs retry three times before paging",
      project: "alpha",
      source: "sess-ocelot-1",
      agent: "codex",
      model: "gpt-5.1",
    });
    expect(proposed.status, proposed.text).toBe(201);
    const accepted = await ana("POST", `/api/proposals/${proposed.json.proposal.id}/accept`, { content: "Ocelot jobs retry 3 times before they page" });
    expect(accepted.status, accepted.text).toBe(200);
    const id = accepted.json.learning.id as string;
    const got = await bo("GET", `/api/learnings/${id}`);
    expect(got.json.learning.provenance).toEqual({
      origin: "proposal",
      by: "bo",
      agent: "codex",
      model: "gpt-5.1",
      session: "sess-ocelot-1",
      proposalId: proposed.json.proposal.id,
      acceptedBy: "ana",
      acceptedAt: expect.any(String),
      editedBy: "ana",
      editedAt: expect.any(String),
    });
    const text = toolText(await call("vi", "search_learnings", { query: "ocelot paging" }));
    expect(text).toMatch(/Ocelot jobs retry 3 times before they page \(id [^)]+\)\n {2}proposed by bo \(Codex CLI · gpt-5\.1\) in session sess-ocelot-1, accepted by ana on \d{4}-\d\d-\d\d, edited by ana on \d{4}-\d\d-\d\d$/m);
  });

  it("typed, then edited by a teammate: the edit is recorded, a pin is not an edit", async () => {
    const made = await bo("POST", "/api/learnings", { kind: "pattern", content: "Tapir builds need node 22", project: "alpha" });
    expect(made.json.learning.provenance).toMatchObject({ origin: "typed", by: "bo", agent: null, session: null, acceptedAt: null, editedAt: null });
    const pinned = await ana("PATCH", `/api/learnings/${made.json.learning.id}`, { pinned: true });
    expect(pinned.json.learning.provenance).toMatchObject({ editedBy: null, editedAt: null });
    const edited = await ana("PATCH", `/api/learnings/${made.json.learning.id}`, { content: "Tapir builds need node 22 or newer" });
    expect(edited.json.learning.provenance).toMatchObject({ origin: "typed", by: "bo", editedBy: "ana", editedAt: expect.any(String) });
  });

  it("imported with a seed", async () => {
    const seed = { version: "1.0.0", identity: { principalName: "Bo", aiName: "B" }, learned: { patterns: [{ id: "imp-1", content: "Yak shaving is tracked in the ops board", source: "import" }], insights: [], selfKnowledge: [] }, state: {} };
    const imported = await bo("POST", "/api/seed/import", seed);
    expect(imported.status, imported.text).toBe(200);
    const found = await bo("GET", "/api/learnings?q=yak+shaving");
    expect(found.json.items[0].provenance).toMatchObject({ origin: "import", by: "bo", session: null, acceptedAt: null });
  });
});
