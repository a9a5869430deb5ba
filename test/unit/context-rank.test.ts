import { describe, expect, it } from "vitest";
import type { LearningCandidateRow } from "@/lib/db/queries/context-candidates";
import { relevantUnseen } from "@/lib/context/prompt/prompt-learnings";
import { rankStart } from "@/lib/context/rank/rank-start";

// Ranking takes rows already read and returns an order: no database, no embedder here.

const reader = "u1";
const row = (id: string, o: Partial<LearningCandidateRow> = {}): LearningCandidateRow => ({
  id,
  seq: 1,
  kind: "pattern",
  content: `learning ${id}`,
  confirmed: true,
  createdAt: new Date(Date.UTC(2026, 0, 1)),
  tags: "",
  userId: reader,
  author: null,
  ...o,
});
const ids = (l: { id: string }[]) => l.map((x) => x.id);

describe("a session start's ranking", () => {
  it("pinned first, then the matches by relevance, then recent ones filling what the matches leave, each once", () => {
    const ranked = rankStart(
      { pinned: [row("pin")], matches: [row("weak", { score: -1 }), row("best", { score: -4 })], nearest: [], recent: [row("best"), row("new")] },
      { reader, limit: 20 },
    );
    expect(ranked.ranked).toBe(true);
    expect(ids(ranked.learnings)).toEqual(["pin", "best", "weak", "new"]);
    expect(ranked.learnings.map((l) => l.relevance)).toEqual([null, 1, 0.25, null]);
  });

  it("no recent ones once the matches fill the limit", () => {
    const matches = [row("a", { score: -2 }), row("b", { score: -1 })];
    expect(ids(rankStart({ pinned: [], matches, nearest: [], recent: [row("r")] }, { reader, limit: 2 }).learnings)).toEqual(["a", "b"]);
  });

  it("without matches: the recent ones as given, not ranked", () => {
    const ranked = rankStart({ pinned: [], matches: [], nearest: [], recent: [row("r1"), row("r2")] }, { reader, limit: 20 });
    expect(ranked).toMatchObject({ ranked: false });
    expect(ids(ranked.learnings)).toEqual(["r1", "r2"]);
  });

  it("a match's length does not count against it: its score as BM25 gives it without length normalisation", () => {
    // Each holds the one hint word once; FTS5's bm25() (k1 1.2, b 0.75) scores the short generic one higher.
    const short = "Write the failing test first.";
    const long = "The settlement test fails around midnight because the cutoff is computed in the server's zone; inject the clock and pin TZ=UTC in the test.";
    const words = (t: string) => t.split(" ").length;
    const mean = (words(short) + words(long)) / 2;
    const bm25 = (t: string) => -(2.2 / (1 + 1.2 * (0.25 + (0.75 * words(t)) / mean)));
    const matches = [row("short", { content: short, score: bm25(short) }), row("long", { content: long, score: bm25(long), createdAt: new Date(Date.UTC(2026, 5, 1)) })];
    expect(bm25(short)).toBeLessThan(bm25(long));
    const ranked = rankStart({ pinned: [], matches, nearest: [], recent: [] }, { reader, limit: 20 });
    // Equal now: the newer first, both as relevant as the best.
    expect(ids(ranked.learnings)).toEqual(["long", "short"]);
    expect(ranked.learnings.map((l) => l.relevance)).toEqual([1, 1]);
  });

  it("the nearest by meaning fused with the matches by rank", () => {
    const ranked = rankStart({ pinned: [], matches: [row("a", { score: -3 }), row("b", { score: -2 })], nearest: [row("b")], recent: [] }, { reader, limit: 20 });
    expect(ids(ranked.learnings)).toEqual(["b", "a"]);
  });
});

describe("a prompt's ranking", () => {
  it("only what the session was not given, and only matches good enough", () => {
    const bm25 = [row("seen", { score: -9 }), row("strong", { score: -5 }), row("weak", { score: -1 })];
    expect(ids(relevantUnseen({ bm25, nearest: [] }, 2, { limit: 10, exclude: new Set(["seen"]), reader }))).toEqual(["strong"]);
  });

  it("at most the limit", () => {
    const bm25 = [row("a", { score: -5 }), row("b", { score: -4 }), row("c", { score: -3 })];
    expect(ids(relevantUnseen({ bm25, nearest: [] }, 0, { limit: 2, exclude: new Set(), reader }))).toEqual(["a", "b"]);
  });
});
