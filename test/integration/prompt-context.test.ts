import { beforeAll, describe, expect, it } from "vitest";
import { countTokens } from "@/lib/context/pack/tokenizer";
import { DEFAULT_PROMPT_BUDGET } from "@/lib/rules";
import { apiClient } from "../support/api";
import { fillerSeed } from "../support/filler-seed";
import { testWorld } from "../support/world";
import { waitFor } from "../fixtures/cli/cli-env";

// GET /api/context/prompt, the prompt stage (SPEC §3): learnings relevant to the prompt that the
// session was not given, at its start or at an earlier prompt; nothing when nothing new is relevant.
// Two instances on one database: what one served a session, the other leaves out.

const world = testWorld({
  users: ["ana", "cy", "zed"],
  projects: { alpha: "ana", beta: "cy" },
  members: [],
  tokens: { anaRead: { user: "ana", scope: "read" } },
  instances: 2,
});
const { as } = world;
const [ana, cy] = [as("ana"), as("cy")];
const ids: Record<string, string> = {};

const FLAMINGO = "The flamingo signing keys rotate through the vault job every Tuesday";
const WEBHOOK = "Stripe webhooks are verified against the raw request body, never the parsed JSON";
const BETA_FLAMINGO = "Beta keeps its own flamingo signing keys in cy's vault";

type PromptJson = { ok: true; context: string; tokenEstimate: number; budget: number; learningsShown: number; learningIds: string[]; project: { slug: string } | null };

const promptUrl = (params: Record<string, string>) => `/api/context/prompt?${new URLSearchParams(params)}`;
async function prompt(client: typeof ana, params: Record<string, string>): Promise<PromptJson> {
  const res = await client("GET", promptUrl(params));
  expect(res.status, res.text).toBe(200);
  return res.json as PromptJson;
}

beforeAll(async () => {
  // A store of ordinary size of ana's own (a search weighs words by what its reader may read): the words of this test are rare in it, as topic words are.
  expect((await as("ana")("POST", "/api/seed/import", fillerSeed(150))).status).toBe(200);
  const learnings = [
    { key: "flamingo", kind: "insight", content: FLAMINGO, project: "alpha", confirmed: true },
    { key: "webhook", kind: "pattern", content: WEBHOOK, project: "alpha", confirmed: true },
    { key: "personal", kind: "pattern", content: "Keep commits small and message them in the imperative mood", confirmed: true },
    { key: "mountain", kind: "insight", content: "Nightly backups are copied to the bucket in the mountain region", project: "alpha", confirmed: true },
  ];
  for (const { key, ...l } of learnings) {
    const res = await ana("POST", "/api/learnings", l);
    expect(res.status).toBe(201);
    ids[key] = res.json.learning.id;
  }
  const beta = await cy("POST", "/api/learnings", { kind: "insight", content: BETA_FLAMINGO, project: "beta", confirmed: true });
  ids.beta = beta.json.learning.id;
});

describe("GET /api/context/prompt", () => {
  it("gives a learning relevant to the prompt once: not again at the next prompt, nor on another instance", async () => {
    const params = { sessionId: "s-once", project: "alpha", q: "How do the flamingo signing keys get rotated?" };
    const first = await prompt(ana, params);
    expect(first).toMatchObject({ ok: true, budget: DEFAULT_PROMPT_BUDGET, learningsShown: 1, learningIds: [ids.flamingo], project: { slug: "alpha" } });
    expect(first.context).toMatch(/^## Learnings relevant to this prompt \(1 not given earlier in this session\)\n- The flamingo signing keys rotate/);
    expect(first.tokenEstimate).toBe(countTokens(first.context));
    // At once, on the same instance: the bookkeeping is still in its buffer.
    expect(await prompt(ana, params)).toMatchObject({ context: "", learningsShown: 0, learningIds: [] });
    // Once written, on the other instance.
    await waitFor("the served learnings to be written", async () => (await world.sql("SELECT count(*) AS n FROM session_served s, json_each(s.learning_ids) WHERE s.session_id = 's-once'"))[0]!.n === 1);
    const other = apiClient(world.servers[1]!.url, world.tokens.ana);
    expect(await prompt(other, params)).toMatchObject({ context: "", learningsShown: 0 });
    // Another session is given it again.
    expect((await prompt(other, { ...params, sessionId: "s-other" })).learningIds).toEqual([ids.flamingo]);
  });

  it("leaves out what the session start gave, even a moment later", async () => {
    const start = await ana("GET", "/api/context?project=alpha&sessionId=s-start&q=flamingo+signing+keys&format=text");
    expect(start.text).toContain(FLAMINGO);
    const after = await prompt(ana, { sessionId: "s-start", project: "alpha", q: "Rotate the flamingo signing keys now" });
    expect(after.context).toBe("");
  });

  it("never gives a pinned learning (the start context has it) nor a superseded one", async () => {
    const pinned = await ana("POST", "/api/learnings", { kind: "pattern", content: "The heron release freeze begins every Friday at noon", project: "alpha", confirmed: true, pinned: true });
    expect(pinned.status).toBe(201);
    const old = await ana("POST", "/api/learnings", { kind: "insight", content: "Osprey invoices are exported to the ledger by the nightly cron", project: "alpha", confirmed: true });
    const proposal = await ana("POST", "/api/proposals", { kind: "insight", content: "Osprey invoices reach the ledger through the hourly export queue now", project: "alpha" });
    expect(proposal.status).toBe(201);
    const accepted = await ana("POST", `/api/proposals/${proposal.json.proposal.id}/accept`, { supersedes: [old.json.learning.id] });
    expect(accepted.status, accepted.text).toBe(200);
    // A session that never had a start context: still not given.
    const heron = await prompt(ana, { sessionId: "s-pinned", project: "alpha", q: "When does the heron release freeze begin on Friday?" });
    expect(heron.learningIds).not.toContain(pinned.json.learning.id);
    // Unpinned, it is an ordinary learning the prompt matches.
    expect((await ana("PATCH", `/api/learnings/${pinned.json.learning.id}`, { pinned: false })).status).toBe(200);
    const unpinned = await prompt(ana, { sessionId: "s-unpinned", project: "alpha", q: "When does the heron release freeze begin on Friday?" });
    expect(unpinned.learningIds).toContain(pinned.json.learning.id);
    const osprey = await prompt(ana, { sessionId: "s-superseded", project: "alpha", q: "How do osprey invoices get exported to the ledger?" });
    expect(osprey.learningIds).not.toContain(old.json.learning.id);
    // The learning that replaced it is what the prompt is given.
    expect(osprey.context).toContain("hourly export queue");
  });

  it("answers nothing for a prompt nothing is relevant to: format=claude is {}, format=text empty", async () => {
    // One word ("mountains") in common with a learning is a coincidence, not a match.
    const unrelated = { sessionId: "s-unrelated", project: "alpha", q: "Please write a haiku about autumn in the mountains" };
    expect(await prompt(ana, unrelated)).toMatchObject({ context: "", tokenEstimate: 0, learningsShown: 0 });
    // A prompt about it is another matter.
    expect((await prompt(ana, { ...unrelated, sessionId: "s-related", q: "Where do the nightly backups go?" })).learningIds).toEqual([ids.mountain]);
    const claude = await ana("GET", promptUrl({ ...unrelated, format: "claude" }));
    expect([claude.status, claude.text, claude.headers.get("content-type")]).toEqual([200, "{}", "application/json"]);
    const text = await ana("GET", promptUrl({ ...unrelated, format: "text" }));
    expect([text.status, text.text]).toEqual([200, ""]);
  });

  it("format=claude is the UserPromptSubmit hook's JSON", async () => {
    const res = await ana("GET", promptUrl({ sessionId: "s-claude", project: "alpha", q: "verify stripe webhooks raw body", format: "claude" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(res.json.hookSpecificOutput.hookEventName).toBe("UserPromptSubmit");
    expect(res.json.hookSpecificOutput.additionalContext).toContain(`- ${WEBHOOK}`);
  });

  it("never gives another user's learnings, and another user's session of the same id is their own", async () => {
    const q = "flamingo signing keys vault";
    const mine = await prompt(ana, { sessionId: "s-shared", project: "alpha", q });
    expect(mine.learningIds).toEqual([ids.flamingo]);
    expect(mine.context).not.toContain(BETA_FLAMINGO);
    const personal = await prompt(ana, { sessionId: "s-shared-2", q });
    expect(personal.learningIds).toEqual([]);
    const theirs = await prompt(cy, { sessionId: "s-shared", project: "beta", q });
    expect(theirs.learningIds).toEqual([ids.beta]);
    expect(theirs.context).not.toContain(FLAMINGO);
    expect((await cy("GET", promptUrl({ sessionId: "s-x", project: "alpha", q }))).status).toBe(404);
  });

  it("a read token may ask; the project resolves from cwd like the session start's", async () => {
    const res = await as("anaRead")("GET", promptUrl({ sessionId: "s-read", cwd: "/home/ana/src/alpha", q: "stripe webhooks raw request body" }));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ project: { slug: "alpha" }, learningIds: [ids.webhook] });
  });

  it.each<{ name: string; params: Record<string, string>; path: string }>([
    { name: "no sessionId", params: { q: "flamingo" }, path: "sessionId" },
    { name: "no prompt", params: { sessionId: "s" }, path: "q" },
    { name: "an empty prompt", params: { sessionId: "s", q: "   " }, path: "q" },
    { name: "a budget below the floor", params: { sessionId: "s", q: "x", budget: "10" }, path: "budget" },
    { name: "a budget that is no number", params: { sessionId: "s", q: "x", budget: "lots" }, path: "budget" },
    { name: "a maxChars below the floor", params: { sessionId: "s", q: "x", maxChars: "5" }, path: "maxChars" },
    { name: "a project that is no slug", params: { sessionId: "s", q: "x", project: "Not A Slug" }, path: "project" },
    { name: "an unknown format", params: { sessionId: "s", q: "x", format: "xml" }, path: "format" },
    { name: "a prompt over the limit", params: { sessionId: "s", q: "x".repeat(2001) }, path: "q" },
  ])("$name → 400 naming $path", async ({ params, path }) => {
    const res = await ana("GET", promptUrl(params));
    expect(res.status).toBe(400);
    expect(res.json.ok).toBe(false);
    expect(res.json.error.issues.map((i: { path: string[] }) => i.path[0])).toContain(path);
  });

  it("without a token → 401", async () => {
    const res = await apiClient(world.server.url)("GET", promptUrl({ sessionId: "s", q: "flamingo" }));
    expect(res.status).toBe(401);
  });
});

describe("the prompt stage's limits", () => {
  const PELICANS = 8;
  beforeAll(async () => {
    for (let i = 0; i < PELICANS; i++) {
      const content = `Pelican deploy step ${i}: the pelican release pipeline checks artefact number ${i} before promoting it to the pelican canary`;
      expect((await ana("POST", "/api/learnings", { kind: "insight", content, project: "alpha", confirmed: true })).status).toBe(201);
    }
  });

  it("keeps within the budget, counts what it left out, and gives the rest at a later prompt", async () => {
    const params = { sessionId: "s-budget", project: "alpha", q: "pelican release pipeline canary", budget: "120" };
    const first = await prompt(ana, params);
    expect(first.tokenEstimate).toBe(countTokens(first.context));
    expect(first.tokenEstimate).toBeLessThanOrEqual(120);
    expect(first.learningsShown).toBeGreaterThan(0);
    expect(first.context.split("\n").filter((l) => l.startsWith("- Pelican"))).toHaveLength(first.learningsShown);
    expect(first.context).toMatch(/\n\d+ more relevant learnings: `baton learnings`$/);
    const second = await prompt(ana, params);
    expect(second.learningsShown).toBeGreaterThan(0);
    expect(second.learningIds.filter((id) => first.learningIds.includes(id))).toEqual([]);
  });

  it("after a compaction, gives again what the session had only from earlier prompts", async () => {
    const other = apiClient(world.servers[1]!.url, world.tokens.ana);
    // s-compact-1 is asked on the same instance at once; s-compact-2 on the other, once the table has it.
    for (const [sessionId, after] of [["s-compact-1", ana], ["s-compact-2", other]] as const) {
      const q = { sessionId, project: "alpha", q: "flamingo signing keys" };
      expect((await prompt(ana, q)).learningIds).toEqual([ids.flamingo]);
      expect((await prompt(ana, q)).learningIds).toEqual([]);
      // The context after the compaction: the pelicans fill its budget, the flamingo learning is not in it.
      const compact = await ana("GET", `/api/context?${new URLSearchParams({ project: "alpha", sessionId, source: "compact", budget: "200", mode: "complement", q: "pelican release pipeline", format: "text" })}`);
      expect(compact.text).toContain("Pelican");
      expect(compact.text).not.toContain(FLAMINGO);
      if (after === other) {
        // Written: the compact context's learnings are there (in the transaction that forgot the rest).
        const rows = `SELECT count(*) AS n, sum(l.value = '${ids.flamingo}') AS flamingo FROM session_served s, json_each(s.learning_ids) l WHERE s.session_id = '${sessionId}'`;
        await waitFor("the compaction to be written", async () => {
          const [row] = await world.sql(rows);
          return Number(row!.n) > 0 && Number(row!.flamingo) === 0;
        });
      }
      expect((await prompt(after, q)).learningIds).toEqual([ids.flamingo]);
    }
  });

  it("after a compaction, forgets what the table still holds from before it while the compaction is not yet written", async () => {
    const q = { sessionId: "s-compact-3", project: "alpha", q: "flamingo signing keys" };
    expect((await prompt(ana, q)).learningIds).toEqual([ids.flamingo]);
    // The earlier prompt's bookkeeping is written; the compaction's will be a second later at the earliest.
    await waitFor("the prompt to be written", async () => (await world.sql("SELECT count(*) AS n FROM session_served WHERE session_id = 's-compact-3'"))[0]!.n === 1);
    const compact = await ana("GET", `/api/context?${new URLSearchParams({ project: "alpha", sessionId: q.sessionId, source: "compact", budget: "200", mode: "complement", q: "pelican release pipeline", format: "text" })}`);
    expect(compact.text).not.toContain(FLAMINGO);
    expect((await prompt(ana, q)).learningIds).toEqual([ids.flamingo]);
  });

  it("keeps within maxChars, and within Claude Code's 10,000 characters by default", async () => {
    const small = await prompt(ana, { sessionId: "s-chars", project: "alpha", q: "pelican release pipeline canary", maxChars: "300" });
    expect(small.context.length).toBeLessThanOrEqual(300);
    expect(small.learningsShown).toBeGreaterThan(0);
    const big = await prompt(ana, { sessionId: "s-chars-2", project: "alpha", q: "pelican release pipeline canary", budget: "32000" });
    expect(big.learningsShown).toBe(PELICANS);
    expect(big.context.length).toBeLessThanOrEqual(9500);
  });
});
