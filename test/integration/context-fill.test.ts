import { beforeAll, describe, expect, it } from "vitest";
import { countTokens } from "@/lib/context/pack/tokenizer";
import { fillerSeed } from "../support/filler-seed";
import { testWorld } from "../support/world";

// A session start at a tight budget (issue 26): a ranked learning too long for what the budget has
// left gives its place to a later one that fits whole, and the start records what it listed, so the
// prompt stage gives the one passed over and not the one listed.

const world = testWorld({ users: ["ana"], projects: { alpha: "ana" }, members: [], tokens: {} });
const ana = world.as("ana");

const HINTS = "kestrel osprey plover heron egret";
// Best: four of the hint words in a short line.
const SHORT_BEST = "Kestrel, osprey, plover and heron counts come from the nightly survey import";
// Second: three of the hint words, in a long line.
const LONG_SECOND =
  "The egret, heron and plover dashboards read the survey warehouse through the reporting replica, " +
  "which lags the primary by up to twenty minutes during the nightly import; numbers that look low right after midnight " +
  "are the replica catching up, not lost sightings, and re-running the import only doubles the rows that arrive late. " +
  "Wait for the replication lag metric to reach zero before comparing totals with the field teams' spreadsheets, " +
  "and say in the ticket which replica timestamp the comparison used so the next person can repeat it. " +
  "The replica is rebuilt from a snapshot every Sunday morning, so on Sundays the lag can reach two hours while it " +
  "replays the week's write-ahead log; the dashboards show a banner then, but exports started from the command line " +
  "do not, and a comparison made during the rebuild should be repeated after it before anyone files a data-loss report.";
// Third: one hint word, short.
const SHORT_THIRD = "Egret sightings are stored per colony, not per bird";

type Ctx = { context: string; tokenEstimate: number; learningsShown: number };
const lineOf = (content: string) => `- ${content} (`;

async function start(budget: number, sessionId?: string): Promise<Ctx> {
  const params = new URLSearchParams({ project: "alpha", q: HINTS, budget: String(budget), ...(sessionId ? { sessionId } : {}) });
  const res = await ana("GET", `/api/context?${params}`);
  expect(res.status, res.text).toBe(200);
  return res.json as Ctx;
}

beforeAll(async () => {
  // An identity, as every real user has: the budget's first lines (the lowest budget is 200).
  const identity = { aiName: "Kit", principalName: "Ana", catchphrase: "Small steps, green tests.", preferences: { responseStyle: "concise", timezone: "Europe/Amsterdam" } };
  expect((await ana("PUT", "/api/seed", { identity })).status).toBe(200);
  const learnings = [
    { content: SHORT_BEST, tags: ["kestrel", "osprey", "plover", "heron"] },
    { content: LONG_SECOND, tags: ["plover", "heron", "egret"] },
    { content: SHORT_THIRD, tags: [] },
  ];
  for (const l of learnings) expect((await ana("POST", "/api/learnings", { kind: "insight", ...l, project: "alpha", confirmed: true })).status).toBe(201);
});

describe("a session start at a tight budget", () => {
  it("passes over a learning too long for what is left and lists the next that fits, never cut", async () => {
    const full = await start(4000);
    const at = (content: string) => full.context.indexOf(lineOf(content));
    // The ranking this test relies on: short best, long second, short third.
    expect(at(SHORT_BEST)).toBeGreaterThan(-1);
    expect(at(LONG_SECOND)).toBeGreaterThan(at(SHORT_BEST));
    expect(at(SHORT_THIRD)).toBeGreaterThan(at(LONG_SECOND));

    // Some budget holds the best and the third but not the long second (from the top only, none would).
    let found: { budget: number; ctx: Ctx } | null = null;
    for (let budget = 200; budget <= 600 && !found; budget += 10) {
      const ctx = await start(budget);
      expect(ctx.tokenEstimate).toBeLessThanOrEqual(budget);
      expect(ctx.tokenEstimate).toBe(countTokens(ctx.context));
      if (ctx.context.includes(lineOf(SHORT_THIRD)) && !ctx.context.includes(LONG_SECOND.slice(0, 40))) found = { budget, ctx };
    }
    expect(found, "no budget listed the third learning without the long second one").not.toBeNull();
    const { ctx } = found!;
    expect(ctx.context).toContain(lineOf(SHORT_BEST));
    expect(ctx.learningsShown).toBe(2);
    // The header counts what is listed; the line after the list counts the one passed over.
    expect(ctx.context).toMatch(/## Relevant learnings \(2\/3\)/);
    expect(ctx.context).toContain("1 more learnings: `baton learnings`");
  });

  it("records what it listed as served: the prompt stage gives the one passed over, not the one listed", async () => {
    // A store of ordinary size of ana's own, so the prompt's words weigh as in use (in a store of three
    // learnings every word is common, and the prompt stage gives nothing).
    expect((await ana("POST", "/api/seed/import", fillerSeed(150))).status).toBe(200);
    let budget = 200;
    for (; budget <= 600; budget += 10) {
      const ctx = await start(budget);
      if (ctx.context.includes(lineOf(SHORT_THIRD)) && !ctx.context.includes(LONG_SECOND.slice(0, 40))) break;
    }
    expect(budget).toBeLessThanOrEqual(600);
    const sessionId = "s-fill";
    await start(budget, sessionId);
    const params = new URLSearchParams({ sessionId, project: "alpha", q: "egret heron plover dashboards: replica lag, the weekly snapshot, spreadsheets", format: "json" });
    const prompt = await ana("GET", `/api/context/prompt?${params}`);
    expect(prompt.status, prompt.text).toBe(200);
    expect(prompt.json.context).toContain(lineOf(LONG_SECOND));
    expect(prompt.json.context).not.toContain(SHORT_THIRD);
    expect(prompt.json.context).not.toContain(SHORT_BEST);
  });
});
