import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countTokens } from "@/lib/context/pack/tokenizer";
import { homeEnv, runBaton } from "../fixtures/cli/cli-env";
import { tableCounts } from "../support/fixtures";
import { toolText } from "../support/mcp";
import { testWorld } from "../support/world";
import { learningSectionLines } from "../support/context-text";

// Pinned learnings: in every context of their project (or, personal, of their user), ahead of the
// ranked ones, within budget, said so when they overflow it. ana owns web and other, bo is a member and
// vi a viewer of web; cy is in no project of ana's.
const world = testWorld({
  users: ["ana", "bo", "vi", "cy"],
  projects: { web: "ana", other: "ana", crowded: "ana" },
  members: [
    { project: "web", user: "bo", role: "member" },
    { project: "web", user: "vi", role: "viewer" },
  ],
  tokens: {},
  tempPrefix: "baton-pinned-",
});
const { as } = world;

const FREEZE = "Release freeze: nothing is deployed on Fridays, whatever the ticket says";
const ids: Record<string, string> = {};
const clients: Client[] = [];

/** The learning lines of a context's learnings section, in order. */
const learningLines = learningSectionLines;
const context = async (who: string, query: string) => {
  const res = await as(who)("GET", `/api/context?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json as { context: string; tokenEstimate: number; budget: number; pinnedOmitted: number; learningsShown: number };
};

beforeAll(async () => {
  const learnings = [
    ["migrations", { kind: "pattern", content: "Run database migrations before starting the dev server", project: "web", confirmed: true, tags: ["db"] }],
    ["cookies", { kind: "insight", content: "The session cookie is refreshed once a day", project: "web", confirmed: true }],
    ["freeze", { kind: "pattern", content: FREEZE, project: "web", confirmed: true, pinned: true }],
    ["review", { kind: "pattern", content: "Every pull request needs one review from a member", project: "web" }],
    ["otherNote", { kind: "insight", content: "The other project deploys from a tag", project: "other", confirmed: true }],
  ] as const;
  for (const [key, body] of learnings) {
    const res = await as("ana")("POST", "/api/learnings", body);
    expect(res.status, res.text).toBe(201);
    ids[key] = res.json.learning.id;
  }
}, 60_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
});

describe("pinned learnings", () => {
  it("POST takes pinned; GET shows it and filters by it", async () => {
    expect((await as("ana")("GET", `/api/learnings/${ids.freeze}`)).json.learning).toMatchObject({ pinned: true, supersededAt: null, supersededBy: null });
    expect((await as("ana")("GET", `/api/learnings/${ids.migrations}`)).json.learning.pinned).toBe(false);
    const pinnedOnly = await as("ana")("GET", "/api/learnings?pinned=true");
    expect(pinnedOnly.json.items.map((l: { id: string }) => l.id)).toEqual([ids.freeze]);
    expect((await as("ana")("GET", "/api/learnings?pinned=false")).json.items).toHaveLength(4);
  });

  it("a pinned project learning leads every context of the project, for every member, whatever the hints", async () => {
    for (const [who, query] of [
      ["ana", "project=web&q=database+migrations+dev+server"],
      ["ana", "project=web"],
      ["bo", "project=web&q=session+cookie"],
      ["vi", "project=web&branch=feat/cookies"],
    ] as const) {
      const body = await context(who, query);
      const lines = learningLines(body.context);
      // ana wrote it: her own carries nothing, her teammates see who wrote it (its age only past 90 days).
      expect(lines[0], `${who} ${query}`).toBe(`- ${FREEZE} (pinned${who === "ana" ? "" : ", by ana"})`);
      expect(lines.filter((l) => l.includes("(pinned"))).toHaveLength(1);
      expect(body.context).toMatch(/^## (Relevant|Recent) learnings \(\d+\/\d+, 1 pinned\)$/m);
      expect(body.pinnedOmitted).toBe(0);
    }
    // The ranked ones follow, best match first.
    expect(learningLines((await context("ana", "project=web&q=database+migrations+dev+server")).context)[1]).toContain("Run database migrations");
  });

  it("is in no other project's context, and not in a personal one", async () => {
    for (const query of ["project=other", "project=other&q=release+freeze+fridays", ""]) {
      expect((await context("ana", query)).context, query).not.toContain("Release freeze");
    }
  });

  it("a pinned personal learning is in every context of its user, and nobody else's", async () => {
    const res = await as("bo")("POST", "/api/learnings", { kind: "self_knowledge", content: "I write the changelog entry before the code", pinned: true });
    expect(res.status, res.text).toBe(201);
    for (const query of ["", "project=web", "project=web&q=database+migrations"]) {
      expect(learningLines((await context("bo", query)).context), query).toContain("- [self] I write the changelog entry before the code (pinned, unconfirmed)");
    }
    expect((await context("ana", "project=web")).context).not.toContain("changelog entry");
    expect((await context("vi", "project=web")).context).not.toContain("changelog entry");
  });

  it("pinned ones that overflow the budget are said to, and counted; both limits hold", async () => {
    const words = "the deploy checklist names every step, who signs it off and where the logs go; ".repeat(4);
    for (let i = 0; i < 12; i++) {
      expect((await as("ana")("POST", "/api/learnings", { kind: "pattern", content: `Crowded rule ${i}: ${words}`, project: "crowded", pinned: true })).status).toBe(201);
    }
    const body = await context("ana", "project=crowded&budget=600&q=deploy+checklist");
    expect(body.tokenEstimate).toBeLessThanOrEqual(600);
    expect(body.tokenEstimate).toBe(countTokens(body.context));
    expect(body.context.length).toBeLessThanOrEqual(9500);
    expect(body.pinnedOmitted).toBeGreaterThan(0);
    expect(body.learningsShown + body.pinnedOmitted).toBe(12);
    expect(body.context).toContain(`${body.pinnedOmitted} pinned learnings did not fit the budget; a larger budget, or unpinning some at`);
    expect(body.context).toContain("/learnings?pinned=true, makes room.");
    const text = await as("ana")("GET", "/api/context?project=crowded&budget=600&q=deploy+checklist&format=text");
    expect(text.text).toBe(body.context);
    // With room for all of them, nothing is said.
    const roomy = await context("ana", "project=crowded&budget=6000&maxChars=40000");
    expect(roomy.pinnedOmitted).toBe(0);
    expect(roomy.context).not.toContain("did not fit");
  });

  it("PATCH pins and unpins (the served context follows at once), and the audit trail records both", async () => {
    expect((await as("bo")("PATCH", `/api/learnings/${ids.review}`, { pinned: true })).json.learning.pinned).toBe(true);
    expect(learningLines((await context("ana", "project=web")).context).slice(0, 2).map((l) => l.replace(/ \(.*\)$/, ""))).toEqual(
      expect.arrayContaining([`- ${FREEZE}`, "- Every pull request needs one review from a member"]),
    );
    expect((await as("ana")("PATCH", `/api/learnings/${ids.review}`, { pinned: false })).json.learning.pinned).toBe(false);
    expect(learningLines((await context("ana", "project=web")).context)[1]).not.toContain("Every pull request");

    const trail = (await as("ana")("GET", "/api/projects/web/audit")).json.items.filter((e: { action: string }) => e.action === "pin");
    expect(trail.slice(0, 2)).toMatchObject([
      { action: "pin", subject: { kind: "learning", id: ids.review }, detail: "unpinned", actor: { name: "ana" } },
      { action: "pin", subject: { kind: "learning", id: ids.review }, detail: "pinned", actor: { name: "bo" } },
    ]);
    expect(trail.at(-1)).toMatchObject({ subject: { id: ids.freeze }, detail: "added pinned" });
  });

  it.each([
    { who: "vi", body: { pinned: true }, status: 403 },
    { who: "cy", body: { pinned: true }, status: 404 },
    { who: "ana", body: { pinned: "yes" }, status: 400 },
  ])("PATCH pinned by $who ($body) → $status, nothing changed", async ({ who, body, status }) => {
    const before = await tableCounts(world.databaseUrl);
    expect((await as(who)("PATCH", `/api/learnings/${ids.cookies}`, body)).status).toBe(status);
    expect((await as("ana")("GET", `/api/learnings/${ids.cookies}`)).json.learning.pinned).toBe(false);
    expect(await tableCounts(world.databaseUrl)).toEqual(before);
  });

  it("MCP pin_learning pins for a member, refuses a viewer; search_learnings shows it pinned", async () => {
    const connect = async (who: string) => {
      const client = new Client({ name: "baton-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${world.server.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${world.tokens[who]}` } } }),
      );
      clients.push(client);
      return (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
    };
    const [bo, vi] = [await connect("bo"), await connect("vi")];
    const pinned = await bo("pin_learning", { id: ids.cookies });
    expect(pinned.isError, toolText(pinned)).toBeFalsy();
    expect(toolText(pinned)).toBe(`Pinned: learning ${ids.cookies} is now in every context of project web, ahead of the ranked learnings.`);
    expect(pinned.structuredContent).toMatchObject({ ok: true, learning: { id: ids.cookies, pinned: true } });
    expect(learningLines((await context("ana", "project=web&q=database+migrations")).context)).toContain("- The session cookie is refreshed once a day (pinned)");
    expect(toolText(await bo("search_learnings", { query: "session cookie" }))).toMatch(/\[insight · web · confirmed · pinned · by ana\] The session cookie is refreshed once a day/);

    const refused = await vi("pin_learning", { id: ids.cookies, pinned: false });
    expect(refused.isError).toBe(true);
    expect(toolText(refused)).toMatch(/^forbidden: Your role in "web"/);
    const unpinned = await bo("pin_learning", { id: ids.cookies, pinned: false });
    expect(toolText(unpinned)).toBe(`Unpinned: learning ${ids.cookies} is ranked like any other again.`);
    expect((await as("ana")("GET", `/api/learnings/${ids.cookies}`)).json.learning.pinned).toBe(false);
  });

  it("baton import keeps pinned and superseded from a seed.json, and the export writes both back", async () => {
    const seed = {
      version: "1.0.0",
      identity: { principalName: "Cy", aiName: "Echo" },
      learned: {
        patterns: [
          { id: "p-pin", content: "Answer in German unless asked otherwise", confirmed: true, pinned: true, tags: [] },
          { id: "p-plain", content: "Prefer tables for comparisons", confirmed: true, tags: [] },
          { id: "p-old", content: "Prefer bullet lists for comparisons", confirmed: true, tags: [], supersededAt: "2026-11-01T00:00:00.000Z" },
        ],
      },
    };
    const file = path.join(world.dir, "seed.json");
    writeFileSync(file, JSON.stringify(seed));
    const env = homeEnv(path.join(world.dir, "home"), { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.cy! });
    for (const added of [3, 0]) {
      const result = await runBaton(["import", file], { cwd: world.dir, env });
      expect(result.code, result.stderr + result.stdout).toBe(0);
      expect(JSON.parse(result.stdout).summary.seed).toMatchObject({ learningsAdded: added });
    }
    const pinnedOnly = (await as("cy")("GET", "/api/learnings?pinned=true")).json.items;
    expect(pinnedOnly.map((l: { content: string }) => l.content)).toEqual(["Answer in German unless asked otherwise"]);
    const lines = learningLines((await context("cy", "q=comparisons+tables+bullet+lists")).context);
    expect(lines[0]).toBe("- Answer in German unless asked otherwise (pinned)");
    // Superseded in the file: searchable, never injected.
    expect(lines.join("\n")).not.toContain("bullet lists");
    const found = (await as("cy")("GET", "/api/learnings?q=bullet")).json.items;
    expect(found).toMatchObject([{ content: "Prefer bullet lists for comparisons", supersededAt: "2026-11-01T00:00:00.000Z" }]);
    const exported = (await as("cy")("GET", "/api/seed")).json.seed.learned.patterns;
    expect(exported.find((p: { id: string }) => p.id === "p-pin")).toMatchObject({ pinned: true });
    expect(exported.find((p: { id: string }) => p.id === "p-plain")).not.toHaveProperty("pinned");
    expect(exported.find((p: { id: string }) => p.id === "p-plain")).not.toHaveProperty("supersededAt");
    expect(exported.find((p: { id: string }) => p.id === "p-old")).toMatchObject({ supersededAt: "2026-11-01T00:00:00.000Z" });
  });
});
