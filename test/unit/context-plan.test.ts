import { describe, expect, it } from "vitest";
import { sessionPrincipal } from "@/lib/auth/principal";
import type { LearningCandidateRow, Searched } from "@/lib/db/queries/context-candidates";
import { absorb, DONE, planReads, startKnown, type Known, type Memory, type Plan, type ReadRequest } from "@/lib/context/read/plan";
import { contextQuerySchema } from "@/lib/context/context-query";
import type { BatchResults, Sections, Snapshot } from "@/lib/context/read/batch";
import { FEEDBACK_TERMS, hintsOf } from "@/lib/context/hints/hint-query";
import { kindCounts } from "../support/context-data";

// The plan of a context's reads, on made-up records: which reads each batch makes from what is known,
// and what a batch's answers make known. The integration tests (context-round-trips, context-same-bytes)
// check the same on a real server; these pin down each decision on its own.

const userId = "u1";
const project = { id: "p1", slug: "shop", name: "Shop", role: "owner" as const, injectionPaused: false, createdAt: new Date(0) };
const sections: Sections = { queued: 0, proposals: { items: [], total: 0 }, counts: kindCounts(), pinned: [] };
const row = (id: string, tags: string): LearningCandidateRow => ({
  id,
  seq: 1,
  kind: "pattern",
  content: `learning ${id}`,
  confirmed: true,
  createdAt: new Date(0),
  tags,
  userId,
  author: null,
  score: -1,
});

function request(query: Record<string, string>, snapshot?: Snapshot): ReadRequest {
  return { principal: sessionPrincipal(userId), q: contextQuerySchema.parse(query), limit: 20, snapshot, local: false };
}

/** What the instance remembers: the version last seen, and word frequencies at `frequencies.at`. */
function memory(seen: string | null, frequencies: { at?: string; of?: Record<string, number> } = {}): Memory {
  return {
    seen: { version: seen },
    // Held by reader and word (readerWord): how many learnings the reader may read as the word "", 1000.
    frequencies: { currentVersion: frequencies.at ?? null, get: (v, key) => (v !== null && v === frequencies.at ? wordOf(key, frequencies.of) : undefined) },
    recent: { get: () => undefined },
  };
}

const wordOf = (key: string, of: Record<string, number> | undefined) => {
  const word = key.slice(key.lastIndexOf("\u0000") + 1);
  return word === "" ? 1000 : of?.[word];
};

/** A batch's answers: the version read, and whatever else the batch read. */
const answers = (version: string, r: Partial<BatchResults> = {}): BatchResults => ({ meta: { version, vectorWidth: null }, ...r }) as BatchResults;
const sectionAnswers = { proposals: sections.proposals, counts: sections.counts, pinned: sections.pinned, queued: 0 };
const choices = [{ ...project, joinedAt: new Date(0), matcherKind: null, matcherPattern: null }];

function plan(k: Known, req: ReadRequest, mem: Memory): Plan {
  const p = planReads(k, req, mem);
  if (p === DONE) throw new Error("expected reads to plan");
  return p;
}

describe("the first plan", () => {
  it("without a snapshot, hints naming a project: the project's choices, the seed and the marks; nothing that needs the owner", () => {
    const req = request({ cwd: "/work/shop", q: "stale price" });
    const p = plan(startKnown(req), req, memory("7"));
    expect(p.reads).toEqual({ mark: true, choices: true, seed: true, sections: undefined, handoff: undefined, search: undefined, recent: undefined });
    expect(p.assumed).toMatchObject({ owner: undefined, snapshot: false, readSeed: true, version: "7" });
  });

  it("with a snapshot at the version last seen: the project, seed and sections assumed; the handoff, the search and the recent ones read", () => {
    const req = request({ cwd: "/work/shop", q: "stale price" }, { version: "7", project, seed: undefined, sections });
    const p = plan(startKnown(req), req, memory("7"));
    const owner = { userId, projectId: "p1" };
    expect(p.reads).toEqual({
      mark: true,
      choices: false,
      seed: false,
      sections: undefined,
      handoff: owner,
      search: { owner, terms: hintsOf(req.q, null).terms.map((t) => [t, null]), knownAt: null, scores: true },
      recent: owner,
    });
    expect(p.assumed).toMatchObject({ owner, snapshot: true, readSeed: false });
  });

  it("with a snapshot of an older version: it names the owner to read for, and nothing of it is assumed", () => {
    const req = request({ cwd: "/work/shop", q: "stale price" }, { version: "6", project, seed: undefined, sections });
    const p = plan(startKnown(req), req, memory("7"));
    const owner = { userId, projectId: "p1" };
    expect(p.reads).toMatchObject({ choices: true, seed: true, sections: owner, handoff: owner, recent: owner });
    expect(p.assumed.snapshot).toBe(false);
  });

  it("a personal context (no project hints) knows its owner and reads everything in one batch", () => {
    const req = request({ q: "stale price" });
    const p = plan(startKnown(req), req, memory(null));
    const owner = { userId, projectId: null };
    expect(p.reads).toMatchObject({ mark: true, choices: false, seed: true, sections: owner, handoff: undefined, recent: owner });
    expect(p.reads.search).toMatchObject({ owner });
  });
});

describe("a version that moved", () => {
  it("drops the snapshot assumed, and the next batch reads what it had assumed; the marks only once", () => {
    const req = request({ cwd: "/work/shop", q: "stale price" }, { version: "7", project, seed: undefined, sections });
    const start = startKnown(req);
    const first = plan(start, req, memory("7"));
    const searched: Searched = { candidates: [row("a", "")], counted: new Map(), chosen: '"stale"', scores: "[]" , size: 1000 };
    const k = absorb(start, answers("8", { search: searched, handoff: undefined, recentPersonal: [], recentProject: [] }), first.assumed, req, memory("8"));
    expect(k).toMatchObject({ ownerKnown: false, project: null, versions: ["8"] });
    expect([k.sections, k.seed]).toEqual([undefined, undefined]);
    const second = plan(k, req, memory("8"));
    const owner = { userId, projectId: "p1" };
    expect(second.reads).toMatchObject({ mark: false, choices: true, seed: true, sections: owner });
    expect(second.assumed).toMatchObject({ snapshot: false, version: "8" });
  });

  it("the snapshot adopted when the version read is the one assumed", () => {
    const req = request({ cwd: "/work/shop", q: "stale price" }, { version: "7", project, seed: undefined, sections });
    const start = startKnown(req);
    const first = plan(start, req, memory("7"));
    const k = absorb(start, answers("7", { search: { candidates: [row("a", "")], counted: new Map(), chosen: '"stale"', scores: "[]" , size: 1000 }, recentPersonal: [], recentProject: [] }), first.assumed, req, memory("7"));
    expect(k).toMatchObject({ ownerKnown: true, project, sections, seed: { value: undefined }, handoff: { value: undefined } });
    expect(k.matches?.map((m) => m.id)).toEqual(["a"]);
    expect(planReads(k, req, memory("7"))).toBe(DONE);
  });

  it("a project chosen other than the snapshot's forgets what was read for the snapshot's", () => {
    const req = request({ cwd: "/work/shop", q: "stale price" }, { version: "6", project: { ...project, id: "p0" }, seed: undefined, sections });
    const start = startKnown(req);
    const first = plan(start, req, memory("7"));
    const read = answers("7", { choices, seed: undefined, ...sectionAnswers, search: { candidates: [row("a", "")], counted: new Map(), chosen: '"stale"', scores: "[]" , size: 1000 }, recentPersonal: [] });
    const k = absorb(start, read, first.assumed, req, memory("7"));
    expect(k).toMatchObject({ owner: { userId, projectId: "p1" }, project });
    expect([k.sections, k.first, k.matches, k.recent]).toEqual([undefined, undefined, undefined, undefined]);
    expect(plan(k, req, memory("7")).reads).toMatchObject({ choices: false, sections: { projectId: "p1" }, handoff: { projectId: "p1" }, recent: { projectId: "p1" } });
  });
});

describe("the tags' feedback", () => {
  const req = request({ q: "stale price" });
  const start = startKnown(req);
  const batch = (search: Searched) => answers("7", { seed: undefined, ...sectionAnswers, search, recentPersonal: [], recentProject: [] });

  it("is searched in a next batch when the best matches' tags add words: its own words, the hints' scores added", () => {
    const first = plan(start, req, memory("7"));
    const scores = "[[1,-2],[3,-1.8]]";
    const k = absorb(start, batch({ candidates: [row("a", "cache invalidation")], counted: new Map(), chosen: '"stale"', scores , size: 1000 }), first.assumed, req, memory("7"));
    expect(k.matches).toBeUndefined();
    expect(k.feedback).toEqual({ extra: [["cache", null], ["invalidation", null]] });
    const second = plan(k, req, memory("7"));
    expect(second.reads).toMatchObject({ mark: false, seed: false, sections: undefined, recent: undefined });
    expect(second.reads.search).toEqual({
      owner: { userId, projectId: null },
      terms: [["cache", null], ["invalidation", null]],
      knownAt: null,
      maxTerms: FEEDBACK_TERMS,
      scored: scores,
    });
    const done = absorb(k, answers("7", { search: { candidates: [row("b", ""), row("a", "")], counted: new Map(), chosen: '"cache"', scores: "[]" , size: 1000 } }), second.assumed, req, memory("7"));
    expect(done.matches?.map((m) => m.id)).toEqual(["b", "a"]);
    expect(planReads(done, req, memory("7"))).toBe(DONE);
  });

  it("with every added word's frequency known, searched by its expression", () => {
    const mem = memory("7", { at: "7", of: { cache: 3, invalidation: 4 } });
    const first = plan(start, req, mem);
    const k = absorb(start, batch({ candidates: [row("a", "cache invalidation")], counted: new Map(), chosen: '"stale"', scores: "[]" , size: 1000 }), first.assumed, req, mem);
    expect(plan(k, req, mem).reads.search).toEqual({ owner: { userId, projectId: null }, match: '"cache" OR "invalidation"', scored: "[]" });
  });

  it("is not searched when the matches have no tags: the reads end after one batch", () => {
    const first = plan(start, req, memory("7"));
    const k = absorb(start, batch({ candidates: [row("a", "")], counted: new Map(), chosen: '"stale"', scores: "[]" , size: 1000 }), first.assumed, req, memory("7"));
    expect(k.feedback).toBeNull();
    expect(k.matches?.map((m) => m.id)).toEqual(["a"]);
    expect(planReads(k, req, memory("7"))).toBe(DONE);
  });

  it("absorbing leaves the record it was given as it was", () => {
    const first = plan(start, req, memory("7"));
    const before = JSON.stringify(start);
    absorb(start, batch({ candidates: [row("a", "cache")], counted: new Map(), chosen: '"stale"', scores: "[]" , size: 1000 }), first.assumed, req, memory("7"));
    expect(JSON.stringify(start)).toBe(before);
  });
});

describe("the loop's end", () => {
  it("takes recent learnings from the cache in the first two batches only, so the reads end", () => {
    const req = request({ q: "stale price" });
    const cached = [row("r", "")];
    const mem: Memory = { ...memory("7"), recent: { get: (v) => (v === "7" ? cached : undefined) } };
    const k: Known = { ...startKnown(req), seed: { value: undefined }, sections, matches: [] };
    const owner = { userId, projectId: null };
    expect(plan({ ...k, versions: ["7"] }, req, mem)).toMatchObject({ reads: { recent: undefined }, assumed: { cachedRecent: cached, version: "7" } });
    expect(plan({ ...k, versions: ["7", "7"] }, req, mem)).toMatchObject({ reads: { recent: owner }, assumed: { version: null } });
  });


  it("a record that knows everything plans nothing", () => {
    const req = request({ q: "stale price" });
    const k: Known = { ...startKnown(req), seed: { value: undefined }, sections, matches: [], recent: [], versions: ["7"] };
    expect(planReads(k, req, memory("7"))).toBe(DONE);
    expect(planReads({ ...k, recent: undefined }, req, memory("7"))).not.toBe(DONE);
  });
});
