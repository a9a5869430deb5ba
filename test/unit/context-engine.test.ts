import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildContext } from "@/lib/context/pack/build-context";
import type { ContextOptions } from "@/lib/context/context-types";
import { defuseLine } from "@/lib/context/pack/fence";
import { packSections } from "@/lib/context/pack/pack-context";
import type { SectionDraft } from "@/lib/context/pack/render-sections";
import { cutContent, proposalIndexLine } from "@/lib/context/pack/proposal-index";
import { relativeTime } from "@/lib/context/pack/relative-time";
import { countTokens } from "@/lib/context/pack/tokenizer";
import { AGENT_NAMES } from "@/lib/rules";
import { contextData as data, contextNow as now, contextOptions as options, hoursAgo, kindCounts } from "../support/context-data";
import { learningSectionLines } from "../support/context-text";

describe("the compact proposals index", () => {
  it.each([
    ["Always run the full test suite before pushing to main", "Always run the full test suite before pu…"],
    ["Short one", "Short one"],
    ["exactly forty characters long, no more!!", "exactly forty characters long, no more!!"],
    ["line\nbreaks   collapse", "line breaks collapse"],
  ])("cuts %j to %j", (input, expected) => {
    expect(cutContent(input)).toBe(expected);
    expect(Array.from(cutContent(input).replace(/…$/, "")).length).toBeLessThanOrEqual(40);
  });

  it.each([
    ["flags", "🇩🇪".repeat(45)],
    ["an emoji joined with a zero-width joiner", "👩‍💻".repeat(45)],
    ["a flag with a variation selector", "🏳️‍🌈".repeat(45)],
    ["Devanagari conjuncts", "क्ष".repeat(45)],
    ["keycaps", "1️⃣".repeat(45)],
  ])("cuts %s between the characters a reader sees, never inside one", (_name, text) => {
    const unit = text.slice(0, text.length / 45);
    expect(cutContent(text)).toBe(`${unit.repeat(40)}…`);
  });

  it("shows a 5-character id prefix, the kind, the cut content and two decimals", () => {
    expect(proposalIndexLine({ id: "a1b2c3d4-0000", kind: "pattern", content: "Always run the full test suite before pushing to main", confidence: 0.725 })).toBe(
      '- a1b2c pattern "Always run the full test suite before pu…" 0.72',
    );
  });

  it("no proposals → no section at all", () => {
    const built = buildContext(data({ proposals: [], proposalCount: 0 }), options(), countTokens);
    expect(built.context).not.toContain("proposals");
    expect(built.sections.map((s) => s.name)).not.toContain("proposals");
  });

  it("points at the dashboard to review", () => {
    expect(buildContext(data(), options(), countTokens).context).toContain("Review: https://baton.test/proposals");
  });
});

describe("relativeTime", () => {
  it.each([
    [0.01, "just now"],
    [0.5, "30 min ago"],
    [2, "2 h ago"],
    [47, "47 h ago"],
    [72, "3 d ago"],
    [24 * 90, "on 2026-08-24"],
  ])("%d hours → %s", (h, text) => expect(relativeTime(hoursAgo(h), now)).toBe(text));
});

describe("buildContext", () => {
  it("orders sections identity → task → handoff → learnings → proposals → state, as facts", () => {
    const built = buildContext(data(), options(), countTokens);
    const order = ["## Identity", "## Active task: task-368", "## Last handoff (2 h ago, branch main, by ana)", "## Relevant learnings (12/40)", "## Pending proposals (2)", "## Session state"];
    const positions = order.map((h) => built.context.indexOf(h));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(built.context).not.toMatch(/\b(you must|always obey|IMPORTANT:|SYSTEM)\b/i);
    expect(built.learningsShown).toBe(12);
  });

  it("names the agent that wrote the handoff after its author, by its label alone, only when known", () => {
    const handoff = (agent: (typeof AGENT_NAMES)[number] | null) => ({ ...data().handoff!, agent });
    const unknown = buildContext(data({ handoff: handoff(null) }), options(), countTokens);
    const codex = buildContext(data({ handoff: handoff("codex") }), options(), countTokens);
    expect(codex.context).toContain("## Last handoff (2 h ago, branch main, by ana, Codex CLI), quoted:");
    expect(unknown.context).toContain("## Last handoff (2 h ago, branch main, by ana), quoted:");
    // The byline is a few tokens, whichever agent it names.
    for (const agent of AGENT_NAMES) {
      const named = buildContext(data({ handoff: handoff(agent) }), options(), countTokens);
      expect(named.tokenEstimate - unknown.tokenEstimate).toBeLessThanOrEqual(4);
    }
    const checkpoint = buildContext(data({ handoff: { ...handoff("gemini"), checkpoint: true } }), options({ source: "compact" }), countTokens);
    expect(checkpoint.context).toContain("## This session before its compaction (checkpoint, 2 h ago, branch main, by ana, Gemini CLI), quoted:");
  });

  it("after compact, task memory and handoff come first", () => {
    const built = buildContext(data(), options({ source: "compact" }), countTokens);
    expect(built.context.indexOf("## Active task")).toBeLessThan(built.context.indexOf("## Identity"));
    expect(built.context.indexOf("## Last handoff")).toBeLessThan(built.context.indexOf("## Identity"));
  });

  it("complement mode leaves identity out", () => {
    const built = buildContext(data(), options({ mode: "complement" }), countTokens);
    expect(built.context).not.toContain("## Identity");
    expect(built.context).toContain("## Active task");
  });

  it("first run: setup guidance instead of identity, needsSetup", () => {
    const built = buildContext(data({ identity: null, setupNote: true }), options(), countTokens);
    expect(built.needsSetup).toBe(true);
    expect(built.context).toContain("baton import seed.json");
  });

  it("the setup note once shown: neither identity nor setup, still needsSetup", () => {
    const built = buildContext(data({ identity: null, setupNote: false }), options(), countTokens);
    expect(built.needsSetup).toBe(true);
    expect(built.context).not.toContain("## Baton setup");
    expect(built.context).not.toContain("## Identity");
  });

  it("recency header without usable hints", () => {
    const built = buildContext(data({ learningsRanked: false, learnings: data().learnings.map((l) => ({ ...l, relevance: null })) }), options(), countTokens);
    expect(built.context).toContain("## Recent learnings (12/40)");
  });

  it("shortens a section that does not fit and counts what it left out", () => {
    const built = buildContext(data(), options({ budget: 300 }), countTokens);
    expect(built.tokenEstimate).toBeLessThanOrEqual(300);
    const learnings = built.sections.find((s) => s.name === "learnings")!;
    if (learnings.included) {
      expect(learnings.omitted).toBeGreaterThan(0);
      expect(built.context).toContain(`${learnings.omitted} more learnings: \`baton learnings\``);
      expect(built.context).toContain(`## Relevant learnings (${12 - learnings.omitted}/40)`);
    } else {
      expect(built.context).toMatch(/Left out to fit the budget: .*12 learnings/);
    }
  });

  it("passes over an item too long for what is left from fillFrom on, and keeps the items before it from the top only", () => {
    const long = `- long ${"word ".repeat(80)}`;
    const draft = (fillFrom?: number): SectionDraft => ({
      name: "learnings",
      header: (n) => `## Items (${n})`,
      items: ["- first", long, "- third", "- fourth"],
      omitted: (n) => `${n} more`,
      ...(fillFrom === undefined ? {} : { fillFrom }),
    });
    const limits = { budget: 40, maxChars: 9500, count: countTokens };
    const filled = packSections([draft(0)], limits);
    expect(filled.kept.learnings).toEqual([0, 2, 3]);
    expect(filled.text).toBe("## Items (3)\n- first\n- third\n- fourth\n1 more");
    expect(filled.sections[0]).toMatchObject({ included: true, omitted: 1 });
    // Without fillFrom, or with the long item before it (a pinned one), the list stops at the long item.
    expect(packSections([draft()], limits).kept.learnings).toEqual([0]);
    expect(packSections([draft(2)], limits).kept.learnings).toEqual([0]);
  });

  it("is deterministic", () => {
    expect(buildContext(data(), options(), countTokens)).toEqual(buildContext(data(), options(), countTokens));
  });
});

// Random stores, budgets 200..32000 and maxChars: both limits always hold, tokenEstimate is the
// tokenizer's count of exactly the returned text, and every line of the output is a whole line of input.
const text = fc.string({ minLength: 1, maxLength: 300, unit: fc.constantFrom(..."abcdefghij klmnopqrstuvwxyz ÄÖü漢字🙂-_.,:\n#*`".split("")) });
const arbData = fc.record({
  identity: fc.option(fc.record({ aiName: text, principalName: text, catchphrase: fc.option(text, { nil: undefined }) }), { nil: null }),
  task: fc.option(fc.record({ taskId: fc.constantFrom("task-1", "t-2"), markdown: text }), { nil: null }),
  handoff: fc.option(fc.record({ markdown: fc.array(text, { maxLength: 40 }).map((l) => l.join("\n")), branch: fc.option(fc.constantFrom("main", "feat/x"), { nil: null }), agent: fc.constantFrom(null, ...AGENT_NAMES) }), { nil: null }),
  learnings: fc.array(
    fc.record({
      content: text,
      confirmed: fc.boolean(),
      relevance: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
      // A teammate's learning names its writer (any name, a gone account: null); a stale one its age.
      writer: fc.option(fc.record({ name: fc.option(text, { nil: null }) }), { nil: undefined }),
      writtenAt: fc.constantFrom(hoursAgo(0), hoursAgo(3), hoursAgo(24 * 9), hoursAgo(24 * 400)),
    }),
    { maxLength: 120 },
  ),
  proposals: fc.array(fc.record({ content: text, confidence: fc.double({ min: 0, max: 1, noNaN: true }) }), { maxLength: 30 }),
  extraProposals: fc.nat(50),
  queued: fc.nat(20),
  selfKnowledge: fc.nat(5000),
  seedVersion: fc.option(fc.constantFrom("1.0.0", "12.4.1"), { nil: null }),
});

describe("budgets hold for any store (property)", () => {
  it("tokenEstimate <= budget, length <= maxChars, tokenEstimate = count(context), no cut lines", () => {
    fc.assert(
      fc.property(
        arbData,
        fc.integer({ min: 200, max: 32_000 }),
        fc.integer({ min: 50, max: 20_000 }),
        fc.constantFrom("full", "complement"),
        fc.constantFrom(undefined, "startup", "compact"),
        (d, budget, maxChars, mode, source) => {
          const input = data({
            identity: d.identity,
            setupNote: d.identity === null,
            activeTask: d.task ? { ...d.task, updatedAt: hoursAgo(1), author: "ana", bySelf: false } : null,
            handoff: d.handoff ? { ...d.handoff, author: "ana", createdAt: hoursAgo(5), matchedBranch: true } : null,
            learnings: d.learnings.map((l, i) => ({ ...l, id: `l${i}`, kind: "insight" as const })),
            learningCounts: kindCounts(0, d.learnings.length + 5, d.selfKnowledge),
            proposals: d.proposals.map((p, i) => ({ ...p, id: `p${i}-xxxx`, kind: "pattern" as const })),
            proposalCount: d.proposals.length + (d.proposals.length ? d.extraProposals : 0),
            state: { lastSessionAt: null, activeProjects: [], checkpointRef: null, queuedSessions: d.queued, seedVersion: d.seedVersion },
          });
          const built = buildContext(input, { budget, maxChars, mode, source: source as ContextOptions["source"] }, countTokens);
          expect(built.tokenEstimate).toBeLessThanOrEqual(budget);
          expect(built.context.length).toBeLessThanOrEqual(maxChars);
          expect(built.tokenEstimate).toBe(countTokens(built.context));
          const sources = new Set([
            // Learnings are listed defused (lib/context/pack/fence.ts), quoted lines carry "> ".
            ...input.learnings.map((l) => defuseLine(l.content)),
            ...(input.handoff?.markdown.split("\n") ?? []),
            ...(input.activeTask?.markdown.split("\n") ?? []),
          ]);
          for (const line of learningSectionLines(built.context)) {
            const learning = /^- (?:\[self\] )?(.*?)(?: \((?:[\d.]+(?:, )?)?(?:unconfirmed)?(?:(?:, )?by .*?)?(?:(?:, )?\d+(?:mo|y))?\))?$/.exec(line);
            expect(learning, line).not.toBeNull();
            expect([...sources].some((s) => s.startsWith(learning![1]!))).toBe(true);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("fuseRankings (reciprocal rank fusion)", () => {
  it("favours items both lists rank high, and keeps items only one list has", async () => {
    const { fuseRankings } = await import("@/lib/context/rank/fuse-rankings");
    const fused = fuseRankings([
      ["a", "b", "c"],
      ["b", "d", "a"],
    ]);
    const order = [...fused.entries()].sort((x, y) => y[1] - x[1]).map(([id]) => id);
    expect(order.slice(0, 2).sort()).toEqual(["a", "b"]);
    expect(order).toContain("d");
    expect(fused.get("b")).toBeCloseTo(1 / 62 + 1 / 61, 10);
  });
});

describe("selectTerms (pruning hint words by document frequency)", async () => {
  const { selectTerms, hintTerms } = await import("@/lib/context/hints/hint-query");
  it("keeps informative words in their order, drops absent and overly common ones", () => {
    const df = new Map([["webhook", 40], ["retry", 400], ["tests", 30_000], ["race", 0]]);
    expect(selectTerms(["webhook", "retry", "tests", "race"], df, 100_000)).toEqual(["webhook", "retry"]);
  });
  it("never prunes on a small store (the cutoff is at least 50 learnings)", () => {
    const df = new Map([["tests", 45], ["deploy", 12]]);
    expect(selectTerms(["tests", "deploy"], df, 172)).toEqual(["tests", "deploy"]);
  });
  it("bounds the rows BM25 scores to MAX_MATCHES (500), keeping the rarest words first", () => {
    const df = new Map([["d4", 300], ["a1", 100], ["c3", 200], ["b2", 150], ["e5", 40]]);
    // Rarest first: e5 40, a1 140, b2 290, c3 490; d4 would make 790.
    expect(selectTerms(["d4", "a1", "c3", "b2", "e5"], df, 100_000)).toEqual(["a1", "c3", "b2", "e5"]);
  });
  it("keeps the rarest word even when it alone matches more than MAX_MATCHES", () => {
    const df = new Map([["a1", 4000], ["b2", 4500]]);
    expect(selectTerms(["a1", "b2"], df, 100_000)).toEqual(["a1"]);
  });
  it("feedback: the best matches' tag words, in their order, without the words already searched", async () => {
    const { feedbackTerms, FEEDBACK_MATCHES } = await import("@/lib/context/hints/hint-query");
    const matches = [{ tags: "payments webhooks" }, { tags: "stripe payments" }, { tags: "" }, { tags: "dev-setup" }, { tags: "ci" }, { tags: "never-read" }];
    expect(FEEDBACK_MATCHES).toBe(5);
    expect(feedbackTerms(matches, ["stripe", "webhook"])).toEqual(["payments", "webhooks", "dev", "setup", "ci"]);
  });
  it("reads words from all hints, without noise words and repeats", () => {
    expect(hintTerms({ q: "Fix webhook retry · webhook tests", branch: "feat/retry-queue", cwd: "/home/ana/src/ledger" })).toEqual([
      "fix", "webhook", "retry", "tests", "queue", "ledger",
    ]);
  });
});
