import { beforeAll, describe, expect, it } from "vitest";
import { MAX_TAGS } from "@/lib/rules";
import { testWorld } from "../support/world";

// Issue 27 item 3 on a made-up history, through the real server: alpha (ana owns it, bo a member, vi
// a viewer) has a learning unused for 200 days, two near-duplicates, a contradictory pair, a flagged
// one and a few that are fine; beta (cy's) has problems of its own, never listed in alpha's queue.
const world = testWorld({ tempPrefix: "baton-tidy-" });
const { as } = world;
const ids: Record<string, string> = {};
const DAY = 86_400_000;

const SEEDS = {
  stale: { content: "The legacy billing export runs from the reports VM.", createdAt: new Date(Date.now() - 200 * DAY).toISOString() },
  dupA: { content: "Run the migrations before the integration tests with pnpm db:migrate." },
  dupB: { content: "Run migrations before integration tests: pnpm db:migrate." },
  portOld: { content: "The service listens on :8080." },
  portNew: { content: "HTTP port changed to 9000 to free 8080 for the Envoy sidecar." },
  flagged: { content: "The retry loop lives in src/retry.ts." },
  fine: { content: "Use Zod schemas at every API edge." },
};

type Entry = { id: string; content: string };
type Queue = { stale: Entry[]; flagged: Entry[]; duplicates: { a: Entry; b: Entry }[]; contradictions: { a: Entry; b: Entry; reasons: string[] }[] };
const queue = async (who = "ana", slug = "alpha") => {
  const res = await as(who)("GET", `/api/projects/${slug}/tidy`);
  expect(res.status, res.text).toBe(200);
  return res.json as Queue;
};
const pairIds = (pairs: { a: Entry; b: Entry }[]) => pairs.map((p) => [p.a.id, p.b.id].sort().join(" "));
const both = (x: string, y: string) => [ids[x]!, ids[y]!].sort().join(" ");

beforeAll(async () => {
  for (const [key, body] of Object.entries(SEEDS)) {
    const res = await as("ana")("POST", "/api/learnings", { kind: "pattern", project: "alpha", ...body });
    expect(res.status, res.text).toBe(201);
    ids[key] = res.json.learning.id;
  }
  // The session-end worker's flag (tested on its own in learning-usage.test.ts), as it leaves it.
  await world.sql("UPDATE learnings SET flagged_at = ?, flag_reason = 'deleted', flag_file = 'src/retry.ts' WHERE id = ?", [Date.now(), ids.flagged!]);
  for (const content of ["Beta listens on :8080.", "Beta HTTP port changed to 9000 to free 8080.", "Beta keeps its old cron on the VM."]) {
    const res = await as("cy")("POST", "/api/learnings", { kind: "pattern", project: "beta", content, createdAt: new Date(Date.now() - 300 * DAY).toISOString() });
    expect(res.status, res.text).toBe(201);
  }
});

describe("the tidy-up queue", () => {
  it("lists the stale, the near-duplicates, the contradictory pair and the flagged one, and nothing of another project", async () => {
    const q = await queue();
    expect(q.stale.map((l) => l.id)).toEqual([ids.stale]);
    expect(pairIds(q.duplicates)).toEqual([both("dupA", "dupB")]);
    expect(pairIds(q.contradictions)).toEqual([both("portOld", "portNew")]);
    expect(q.flagged.map((l) => l.id)).toEqual([ids.flagged]);
    const listed = JSON.stringify(q);
    expect(listed).not.toContain("Beta");
    expect(listed).not.toContain(ids.fine);
  });

  it("is scoped like every project read: a non-member gets 404, a viewer may read but not act", async () => {
    expect((await as("ana")("GET", "/api/projects/beta/tidy")).status).toBe(404);
    expect((await as("cy")("GET", "/api/projects/alpha/tidy")).status).toBe(404);
    expect((await queue("vi")).stale.map((l) => l.id)).toEqual([ids.stale]);
    const keep = await as("vi")("POST", "/api/projects/alpha/tidy/keep", { ids: [ids.stale] });
    expect(keep.status).toBe(403);
    const merge = await as("vi")("POST", "/api/projects/alpha/tidy/replace", { keep: ids.dupA, drop: ids.dupB, how: "merge" });
    expect(merge.status).toBe(403);
    // Nor may anyone act on another project's learning through this one.
    const crossed = await as("ana")("POST", "/api/projects/gamma/tidy/keep", { ids: [ids.stale] });
    expect(crossed.status).toBe(404);
  });

  it("refuses bad input with a 4xx JSON error", async () => {
    const res = await as("bo")("POST", "/api/projects/alpha/tidy/keep", { ids: [] });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ ok: false, error: { code: expect.any(String), message: expect.any(String) } });
    const self = await as("bo")("POST", "/api/projects/alpha/tidy/replace", { keep: ids.dupA, drop: ids.dupA, how: "merge" });
    expect(self.status).toBe(400);
  });

  it("keep takes a learning out of the queue; merge supersedes the other; both are in the audit trail", async () => {
    expect((await as("bo")("POST", "/api/projects/alpha/tidy/keep", { ids: [ids.stale] })).status).toBe(200);
    expect((await as("bo")("POST", "/api/projects/alpha/tidy/replace", { keep: ids.dupA, drop: ids.dupB, how: "merge" })).status).toBe(200);
    const q = await queue();
    expect(q.stale).toEqual([]);
    expect(q.duplicates).toEqual([]);
    expect(pairIds(q.contradictions)).toEqual([both("portOld", "portNew")]);
    const dropped = (await as("ana")("GET", `/api/learnings/${ids.dupB}`)).json.learning;
    expect(dropped.supersededBy).toBe(ids.dupA);
    const trail = (await as("ana")("GET", "/api/projects/alpha/audit")).json.items as { action: string; subject: { id: string }; detail: string }[];
    expect(trail.find((e) => e.action === "keep")).toMatchObject({ subject: { id: ids.stale } });
    expect(trail.find((e) => e.action === "supersede")).toMatchObject({ subject: { id: ids.dupB } });
  });

  it("a kept pair leaves the queue as a pair: each of the two still pairs with a new learning, and a kept one is still listed when flagged", async () => {
    expect((await as("bo")("POST", "/api/projects/alpha/tidy/keep", { ids: [ids.portNew, ids.portOld] })).status).toBe(200);
    expect(pairIds((await queue()).contradictions)).toEqual([]);
    // Kept the other way round, it is the same pair: one row, its time moved.
    expect((await as("bo")("POST", "/api/projects/alpha/tidy/keep", { ids: [ids.portOld, ids.portNew] })).status).toBe(200);
    expect(await world.sql("SELECT count(*) AS n FROM kept_pairs")).toEqual([{ n: 1 }]);
    const res = await as("ana")("POST", "/api/learnings", { kind: "pattern", project: "alpha", content: "The service no longer listens on :8080; it moved to 7070." });
    expect(res.status, res.text).toBe(201);
    const q = await queue();
    expect(pairIds(q.contradictions)).toContain([ids.portOld!, res.json.learning.id].sort().join(" "));
    expect(pairIds(q.contradictions)).not.toContain(both("portOld", "portNew"));
    // Keeping a pair says nothing about either one alone: flagged, it is listed.
    await world.sql("UPDATE learnings SET flagged_at = ?, flag_reason = 'deleted', flag_file = 'src/server.ts' WHERE id = ?", [Date.now(), ids.portNew!]);
    expect((await queue()).flagged.map((l) => l.id)).toContain(ids.portNew);
    const trail = (await as("ana")("GET", "/api/projects/alpha/audit")).json.items as { action: string; subject: { id: string }; detail: string }[];
    expect(trail.find((e) => e.action === "keep")).toMatchObject({ detail: expect.stringContaining("kept beside “") });
    expect((await as("bo")("POST", "/api/projects/alpha/tidy/keep", { ids: [ids.portOld, ids.portOld] })).status).toBe(400);
  });
  it("a merge gives the kept learning the other's tags up to MAX_TAGS, its own first, so it can be saved as it is", async () => {
    const make = async (content: string, prefix: string) => {
      const tags = Array.from({ length: MAX_TAGS }, (_, i) => `${prefix}${i}`);
      const res = await as("ana")("POST", "/api/learnings", { kind: "pattern", project: "alpha", content, tags });
      expect(res.status, res.text).toBe(201);
      return res.json.learning.id as string;
    };
    const keep = await make("Merged tags: the kept learning has a full set of its own", "own");
    const drop = await make("Merged tags: the dropped learning brings a full set too", "other");
    expect((await as("ana")("POST", "/api/projects/alpha/tidy/replace", { keep, drop, how: "merge" })).status).toBe(200);
    const kept = (await as("ana")("GET", `/api/learnings/${keep}`)).json.learning as { tags: string[] };
    expect(kept.tags).toEqual(Array.from({ length: MAX_TAGS }, (_, i) => `own${i}`));
    expect((await as("ana")("PATCH", `/api/learnings/${keep}`, { tags: kept.tags })).status).toBe(200);
  });
});
