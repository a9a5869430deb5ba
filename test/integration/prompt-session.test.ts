import { beforeAll, describe, expect, it } from "vitest";
import { countTokens } from "@/lib/context/pack/tokenizer";
import { apiClient } from "../support/api";
import { fillerSeed } from "../support/filler-seed";
import { testWorld } from "../support/world";
import { waitFor } from "../fixtures/cli/cli-env";

// The prompt stage continues what the session is about (issue 26): its start's search words are
// recorded with the session (session_projects.terms, this instance's memory first), and a prompt on
// the session's topic is searched together with them, so a learning the start's budget left out comes
// at the prompt even when it shares no word with the prompt. A prompt on something else gets nothing.

const world = testWorld({
  users: ["ana", "cy"],
  projects: { gamma: "ana", delta: "ana", beta: "cy" },
  members: [],
  tokens: {},
  instances: 2,
});
const { as } = world;
const [ana, cy] = [as("ana"), as("cy")];

// The start's hints: what the session is about.
const HINTS = { branch: "fix/osprey-exports", q: "Retry osprey export uploads · Throttle osprey export checksum" };
// Shares words with the session's hints, none with the prompt below.
const TARGET = "Multipart uploads need a retry with a throttle and a checksum on every part";
// cy's own, in cy's project (the same words: the same match, another user's).
const BETA_TARGET = TARGET;
// About the session's topic (osprey, exports), in other words than the target's.
const ON_TOPIC = "osprey exports keep breaking overnight";
const OFF_TOPIC = "thanks! what's a good name for a cat?";
const BLOCKERS = 6;

type PromptJson = { ok: true; context: string; tokenEstimate: number; learningsShown: number; learningIds: string[] };
const ids: Record<string, string> = {};

const promptUrl = (params: Record<string, string>) => `/api/context/prompt?${new URLSearchParams({ format: "json", ...params })}`;
async function prompt(client: typeof ana, params: Record<string, string>): Promise<PromptJson> {
  const res = await client("GET", promptUrl(params));
  expect(res.status, res.text).toBe(200);
  return res.json as PromptJson;
}

/** A session start with the hints, at the smallest budget: the blockers fill it, the target is left out. */
async function start(client: typeof ana, sessionId: string, project: string): Promise<string> {
  const res = await client("GET", `/api/context?${new URLSearchParams({ project, sessionId, source: "startup", budget: "200", format: "text", ...HINTS })}`);
  expect(res.status, res.text).toBe(200);
  return res.text;
}

beforeAll(async () => {
  // Stores of ordinary size, ana's and cy's own (a search weighs words by what its reader may read), so
  // full-text search weighs words as in use.
  for (const user of [ana, cy]) expect((await user("POST", "/api/seed/import", fillerSeed(600))).status).toBe(200);
  const blockers = async (client: typeof ana, project: string) => {
    for (let i = 0; i < BLOCKERS; i++) {
      const content = `Osprey export ${project} ${i}: retry osprey export uploads with the throttle and checksum of batch ${i}`;
      expect((await client("POST", "/api/learnings", { kind: "insight", content, project, confirmed: true })).status).toBe(201);
      // Shorter than the target: what the start's budget has left after the long ones goes to these, not to it.
      expect((await client("POST", "/api/learnings", { kind: "insight", content: `Osprey export retry ${i}: throttle uploads`, project, confirmed: true })).status).toBe(201);
    }
  };
  await blockers(ana, "gamma");
  for (const project of ["gamma", "delta"]) {
    const target = await ana("POST", "/api/learnings", { kind: "pattern", content: TARGET, project, confirmed: true });
    expect(target.status).toBe(201);
    ids[project] = target.json.learning.id;
  }
  await blockers(cy, "beta");
  const beta = await cy("POST", "/api/learnings", { kind: "pattern", content: BETA_TARGET, project: "beta", confirmed: true });
  ids.beta = beta.json.learning.id;
  expect((await ana("PATCH", "/api/projects/delta", { injectionPaused: true })).status).toBe(200);
});

describe("the prompt stage and what the session is about", () => {
  it("gives a learning the start left out at a prompt on the session's topic that shares no word with it", async () => {
    expect(await start(ana, "s-topic", "gamma")).not.toContain(TARGET);
    const got = await prompt(ana, { sessionId: "s-topic", project: "gamma", q: ON_TOPIC });
    expect(got.learningIds).toContain(ids.gamma);
    expect(got.context).toContain(TARGET);
  });

  it("gives nothing at a prompt about something else in the same session", async () => {
    expect(await start(ana, "s-off", "gamma")).not.toContain(TARGET);
    expect(await prompt(ana, { sessionId: "s-off", project: "gamma", q: OFF_TOPIC })).toMatchObject({ context: "", learningsShown: 0, learningIds: [] });
    // The same session, on its topic: the target comes.
    expect((await prompt(ana, { sessionId: "s-off", project: "gamma", q: ON_TOPIC })).learningIds).toContain(ids.gamma);
  });

  it("reads the session's words from the table on another instance", async () => {
    expect(await start(ana, "s-table", "gamma")).not.toContain(TARGET);
    await waitFor("the start's words to be written", async () => {
      const rows = await world.sql("SELECT terms FROM session_projects WHERE session_id = 's-table'");
      return rows.length === 1 && JSON.parse(String(rows[0]!.terms)).words.includes("osprey");
    });
    const other = apiClient(world.servers[1]!.url, world.tokens.ana!);
    expect((await prompt(other, { sessionId: "s-table", project: "gamma", q: ON_TOPIC })).learningIds).toContain(ids.gamma);
  });

  it("never uses another session's or another user's words", async () => {
    // cy's own session with the same hints gets cy's learning at the prompt.
    expect(await start(cy, "s-cy", "beta")).not.toContain(BETA_TARGET);
    expect((await prompt(cy, { sessionId: "s-cy", project: "beta", q: ON_TOPIC })).learningIds).toContain(ids.beta);
    // ana's session of the same id is not cy's: it never started, so ana's prompt has no words but its own.
    expect((await prompt(ana, { sessionId: "s-cy", project: "gamma", q: ON_TOPIC })).learningIds).not.toContain(ids.gamma);
    // Nor does ana's session lend its words to cy's session of the same id.
    await start(ana, "s-ana-only", "gamma");
    expect((await prompt(cy, { sessionId: "s-ana-only", project: "beta", q: ON_TOPIC })).learningIds).not.toContain(ids.beta);
    // Another session of ana's that never started: nothing of the first one's topic.
    expect((await prompt(ana, { sessionId: "s-never-started", project: "gamma", q: ON_TOPIC })).learningIds).not.toContain(ids.gamma);
  });

  it("a paused project's session still gets nothing", async () => {
    await start(ana, "s-paused", "delta");
    expect(await prompt(ana, { sessionId: "s-paused", project: "delta", q: ON_TOPIC })).toMatchObject({ context: "", learningsShown: 0, learningIds: [] });
  });

  it("keeps within the budget and the characters asked for", async () => {
    await start(ana, "s-small", "gamma");
    const small = await prompt(ana, { sessionId: "s-small", project: "gamma", q: ON_TOPIC, budget: "90" });
    expect(small.learningsShown).toBeGreaterThan(0);
    expect(small.tokenEstimate).toBe(countTokens(small.context));
    expect(small.tokenEstimate).toBeLessThanOrEqual(90);
    await start(ana, "s-chars", "gamma");
    const chars = await prompt(ana, { sessionId: "s-chars", project: "gamma", q: ON_TOPIC, maxChars: "250" });
    expect(chars.learningsShown).toBeGreaterThan(0);
    expect(chars.context.length).toBeLessThanOrEqual(250);
    await start(ana, "s-wide", "gamma");
    const wide = await prompt(ana, { sessionId: "s-wide", project: "gamma", q: ON_TOPIC, budget: "32000" });
    expect(wide.learningIds).toContain(ids.gamma);
    expect(wide.context.length).toBeLessThanOrEqual(10_000);
  });
});
