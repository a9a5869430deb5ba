import { describe, expect, it } from "vitest";
import { FEEDBACK_TERMS } from "@/lib/context/hints/hint-query";
import { compactedSince, KEEP_MS, MAX_SESSIONS, recentlyServed, rememberServed, SESSION_TERMS, sessionTerms } from "@/lib/context/cache/recent-sessions";

// What an instance gave each session lately, read by the prompt stage before the table has it.
describe("recently served", () => {
  it("adds up what one user's session was given, apart from other users and sessions", () => {
    rememberServed("u1", "s1", ["a", "b"], 1_000);
    rememberServed("u1", "s1", ["b", "c"], 2_000);
    rememberServed("u2", "s1", ["z"], 2_000);
    expect(recentlyServed("u1", "s1", 2_500).sort()).toEqual(["a", "b", "c"]);
    expect(recentlyServed("u2", "s1", 2_500)).toEqual(["z"]);
    expect(recentlyServed("u1", "s2", 2_500)).toEqual([]);
  });

  it("forgets a session KEEP_MS after it was last given something", () => {
    rememberServed("u3", "s", ["a"], 10_000);
    expect(recentlyServed("u3", "s", 10_000 + KEEP_MS)).toEqual(["a"]);
    expect(recentlyServed("u3", "s", 10_001 + KEEP_MS)).toEqual([]);
  });

  it("after a compaction, the session has only what it is given then", () => {
    rememberServed("u5", "s", ["a", "b"], 5_000);
    rememberServed("u5", "s", ["c"], 6_000, true);
    expect(recentlyServed("u5", "s", 6_000)).toEqual(["c"]);
    // When it was compacted stays known through later prompts, until the table surely has it.
    rememberServed("u5", "s", ["d"], 7_000);
    expect(compactedSince("u5", "s", 7_000)).toEqual(new Date(6_000));
    expect(compactedSince("u5", "s", 7_001 + KEEP_MS)).toBeNull();
    rememberServed("u6", "s", ["a"], 5_000);
    expect(compactedSince("u6", "s", 5_000)).toBeNull();
  });

  it("keeps at most MAX_SESSIONS sessions, forgetting the least recently served first", () => {
    const now = 1e9;
    rememberServed("u4", "first", ["a"], now);
    for (let i = 0; i < MAX_SESSIONS; i++) rememberServed("u4", `s${i}`, ["x"], now);
    expect(recentlyServed("u4", "first", now)).toEqual([]);
    expect(recentlyServed("u4", `s${MAX_SESSIONS - 1}`, now)).toEqual(["x"]);
  });
});

describe("sessionTerms: what a session's start recorded it is about", () => {
  const frequencies = new Map([["osprey", 3], ["export", 40], ["the", 900], ["uploads", 2]]);
  const of = (w: string) => frequencies.get(w);

  it("keeps the hint words the search would choose (known, not too common), in order, and the tags' apart", () => {
    expect(sessionTerms(["osprey", "unknown", "the", "export"], ["uploads", "osprey"], of, 1000)).toEqual({ words: ["osprey", "export"], related: ["uploads", "osprey"] });
  });

  it("records nothing when the store's size is unknown, and at most SESSION_TERMS words, the tags' at most FEEDBACK_TERMS", () => {
    expect(sessionTerms(["osprey"], [], of, null)).toEqual({ words: [], related: [] });
    const many = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const topic = sessionTerms(many, many, () => 1, 1000);
    expect(topic.related).toHaveLength(FEEDBACK_TERMS);
    expect(topic.words.length + topic.related.length).toBe(SESSION_TERMS);
  });
});
