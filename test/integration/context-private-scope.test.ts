import { beforeAll, describe, expect, it } from "vitest";
import { testWorld } from "../support/world";

/**
 * What someone else wrote where a reader may not read it (their personal learnings, a project the
 * reader is not in) reaches the reader's agent in no form: not as a line, and not through the search's
 * statistics either, which would move the scores a context prints, which words it searched for, its
 * bytes and its ETag (a word's IDF counted over the whole store told ana how many of cy's private
 * learnings hold it). The session start's context and the prompt stage, through the real server.
 */

const world = testWorld({ users: ["ana", "cy"], projects: { web: "ana", api: "cy" }, members: [], tokens: {} });
const [ana, cy] = [world.as("ana"), world.as("cy")];

const WORDS = "token refresh race cookie ledger webhook retry deploy staging cache cursor pagination schema vault secret rotate".split(" ");

const CONTEXTS = [
  "project=web&q=refresh+token+race+fix&branch=feat/token-refresh&sessionId=s1",
  "project=web&q=ledger+webhook+retry&budget=300&sessionId=s2",
  "q=vault+secret+rotate&budget=800&sessionId=s3",
  "project=web&q=cursor+pagination+cache&branch=fix/cursor-cache",
].map((q) => `/api/context?format=text&${q}`);

/** Learnings of ana's whose rarer words the prompts name, as prompts that get an answer do. */
const NAMED = [
  "The flamingo webhook drops the osprey ledger row when the queue restarts",
  "Rotate the pelican vault secret through the heron job, never by hand",
  "The kestrel cursor pagination cache goes stale after a puffin migration",
];
const PROMPTS = ["the flamingo webhook keeps dropping osprey rows", "rotate the pelican secret with heron", "kestrel pagination is stale since the puffin change"];

/** Session-start contexts in the served log: the bookkeeping (marks, the last session) is written with it. */
const contextsLogged = async () => Number((await world.sql("SELECT count(*) AS n FROM context_log WHERE source IS NOT 'prompt'"))[0]!.n);

/** Every context ana asks for, with its ETag, and the prompt stage's answer to each prompt in a session of its own. */
async function anaSees(round: string): Promise<string[]> {
  const seen: string[] = [];
  for (const q of CONTEXTS) {
    const res = await ana("GET", q);
    expect(res.status, res.text).toBe(200);
    seen.push(`${res.headers.get("etag")}\n${res.text}`);
  }
  for (const [i, prompt] of PROMPTS.entries()) {
    const res = await ana("GET", `/api/context/prompt?${new URLSearchParams({ q: prompt, sessionId: `${round}-${i}`, project: "web", format: "text" })}`);
    expect(res.status, res.text).toBe(200);
    seen.push(res.text);
  }
  return seen;
}

beforeAll(async () => {
  for (let i = 0; i < 40; i++) {
    const content = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${WORDS[(i * 3 + 1) % WORDS.length]} learning number ${i}`;
    const res = await ana("POST", "/api/learnings", { kind: ["pattern", "insight"][i % 2], content, project: i % 4 ? "web" : undefined, confirmed: true });
    expect(res.status, res.text).toBe(201);
  }
  for (const content of NAMED) expect((await ana("POST", "/api/learnings", { kind: "pattern", content, project: "web", confirmed: true })).status).toBe(201);
}, 120_000);

describe("another user's learnings, where the reader may not read them", () => {
  it("change nothing in the reader's contexts and prompt answers: no line, no score, no byte, no ETag", async () => {
    await anaSees("settle");
    await expect.poll(() => contextsLogged(), { timeout: 15_000 }).toBe(CONTEXTS.length);
    const before = await anaSees("before");
    expect(before[0]).toMatch(/## Relevant learnings/);
    // Scores are printed: what the statistics would have moved.
    expect(before[0]).toMatch(/0\.\d\d/);
    expect(before.slice(CONTEXTS.length).some((answer) => answer.includes("## Learnings relevant to this prompt"))).toBe(true);
    // cy writes learnings full of ana's words: personal ones, and in cy's own project.
    for (let i = 0; i < 60; i++) {
      const content = `${WORDS.slice(0, 1 + (i % WORDS.length)).join(" ")} flamingo osprey pelican kestrel cy private ${i}`;
      const res = await cy("POST", "/api/learnings", { kind: "pattern", content, tags: ["token", "cache"], project: i % 2 ? "api" : undefined, confirmed: true });
      expect(res.status, res.text).toBe(201);
    }
    const after = await anaSees("after");
    for (const answer of after) expect(answer).not.toMatch(/cy private/);
    expect(after).toEqual(before);
  }, 120_000);

  it("change nothing in the order of the reader's learnings search (GET /api/learnings?q=), which gives no score", async () => {
    // Two of ana's, alike but for one word each: in what ana may read, each word is in one learning, so
    // the newer comes first. cy's private learnings holding one of them would make it the commoner word
    // store-wide, and the other learning first.
    for (const content of ["Wombat rollout gate opens at noon", "Quokka rollout gate opens at noon"]) {
      expect((await ana("POST", "/api/learnings", { kind: "pattern", content, confirmed: true })).status).toBe(201);
    }
    const search = async () => {
      const res = await ana("GET", "/api/learnings?q=wombat+quokka");
      expect(res.status, res.text).toBe(200);
      return res.json.items.map((l: { content: string; score?: number }) => [l.content, l.score]);
    };
    const before = await search();
    expect(before).toEqual([["Quokka rollout gate opens at noon", undefined], ["Wombat rollout gate opens at noon", undefined]]);
    for (let i = 0; i < 40; i++) expect((await cy("POST", "/api/learnings", { kind: "pattern", content: `quokka notes of cy ${i}`, project: i % 2 ? "api" : undefined })).status).toBe(201);
    expect(await search()).toEqual(before);
  }, 60_000);
});
