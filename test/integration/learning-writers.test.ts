import { beforeAll, describe, expect, it } from "vitest";
import { toolText } from "../support/mcp";
import { mcpTestWorld } from "../support/mcp-world";

// Issue 21, "Team-written text is fenced": a learning someone else wrote names who wrote it and when,
// in the session-start context (whichever read found it: the search, the newest, the pinned), the
// prompt stage and MCP's search_learnings. The reader's own learnings carry no byline.

const { world, call } = mcpTestWorld();
const bo = world.as("bo");
const ana = world.as("ana");

const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
/** ana's own, from the shared world's setup. */
const ANA_LINE = /^- \[pattern\] Run database migrations before starting the dev server(?: \([\d.]+\))?$/m;

beforeAll(async () => {
  const writes = [
    { kind: "pattern", content: "Quokka deploys need the staging bucket warmed first", project: "alpha", confirmed: true, createdAt: daysAgo(3) },
    { kind: "insight", content: "Pelican builds cache the wombat layer", project: "alpha", confirmed: true, pinned: true, createdAt: daysAgo(3) },
  ];
  for (const body of writes) {
    const res = await bo("POST", "/api/learnings", body);
    expect(res.status, res.text).toBe(201);
  }
});

describe("a teammate's learning names its writer and age; the reader's own does not", () => {
  it.each([
    ["found by the hints' search", "q=quokka+staging+database+migrations", /^- \[pattern\] Quokka deploys need the staging bucket warmed first \([\d.]+, by bo, 3d\)$/m],
    ["among the newest (no hints)", "", /^- \[pattern\] Quokka deploys need the staging bucket warmed first \(by bo, 3d\)$/m],
    ["pinned", "", /^- \[insight\] Pelican builds cache the wombat layer \(pinned, by bo, 3d\)$/m],
  ])("in the session-start context: %s", async (_name, query, bosLine) => {
    const res = await ana("GET", `/api/context?project=alpha&format=text&budget=4000${query ? `&${query}` : ""}`);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(bosLine);
    expect(res.text).toMatch(ANA_LINE);
  });

  it("in bo's own context, his learnings carry nothing and ana's name her", async () => {
    const res = await bo("GET", "/api/context?project=alpha&format=text&budget=4000");
    expect(res.text).toMatch(/^- \[pattern\] Quokka deploys need the staging bucket warmed first$/m);
    expect(res.text).toMatch(/^- \[pattern\] Run database migrations before starting the dev server \(by ana, (now|\d+min)\)$/m);
  });

  it("in the prompt stage", async () => {
    const query = new URLSearchParams({ sessionId: "writers-1", project: "alpha", q: "are quokka deploys waiting on the staging bucket", format: "text" });
    const res = await ana("GET", `/api/context/prompt?${query}`);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^- \[pattern\] Quokka deploys need the staging bucket warmed first \([\d.]+, by bo, 3d\)$/m);
  });

  it("in MCP's search_learnings", async () => {
    const result = await call("ana", "search_learnings", { project: "alpha" });
    const text = toolText(result);
    expect(text).toMatch(/^- \[pattern · alpha · confirmed · by bo · 3d\] Quokka deploys need the staging bucket warmed first \(id /m);
    expect(text).toMatch(/^- \[pattern · alpha · confirmed\] Run database migrations before starting the dev server \(id /m);
  });
});
