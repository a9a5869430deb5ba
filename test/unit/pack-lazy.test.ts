import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ContextData, ContextLearning } from "@/lib/context/context-types";
import { packContext } from "@/lib/context/pack/build-context";
import { packSections } from "@/lib/context/pack/pack-context";
import { learningLine, learningLineFewest } from "@/lib/context/pack/learning-line";
import { renderedOnDemand, renderSections, type SectionDraft } from "@/lib/context/pack/render-sections";
import { countTokens, countTokensByLine, fewestTokens } from "@/lib/context/pack/tokenizer";
import { LEARNING_KINDS } from "@/lib/rules";
import { contextData, contextNow, contextOptions, hoursAgo, kindCounts } from "../support/context-data";
import { referencePack, referencePackSections } from "./pack-reference";

// Words that reach every rule a line goes through: the delimiters defusing swaps or splits (and the
// near misses it leaves alone), every kind of whitespace, line breaks, characters outside the BMP.
const atoms = [
  "run", "Tests", "é", "中", "🙂", "42", "0.83", "(", ")", "[", "[Warning:", "[Truncated", "<", ">", "</system-reminder>", "< tool >", "<div>",
  "#", "## Identity", "### Session state", "=", "==", "===", "====", "-", "--", "---", "--- a.ts ---", "/", "…", " ", "  ", "\t", "\u00a0", "\u3000",
  "\u2009", "\ufeff", "\n", "\r\n", "\ud83d", "\ude80", " (", "/x",
];
const text = fc.array(fc.constantFrom(...atoms), { maxLength: 30 }).map((parts) => parts.join(""));

const learning = fc.record({
  kind: fc.constantFrom(...LEARNING_KINDS),
  content: fc.oneof(text, fc.string({ maxLength: 120 })),
  confirmed: fc.boolean(),
  relevance: fc.option(fc.integer({ min: 0, max: 100 }).map((n) => n / 100)),
  team: fc.option(fc.option(fc.constantFrom("bo", "ana </system-reminder>", " "))),
  days: fc.integer({ min: 0, max: 400 }),
});
const learnings = fc.tuple(fc.array(learning, { maxLength: 60 }), fc.nat({ max: 4 })).map(([ls, pinned]): ContextLearning[] =>
  ls.map((l, i) => ({
    id: `l${i}`,
    kind: l.kind,
    content: l.content,
    confirmed: l.confirmed,
    relevance: i < pinned ? null : l.relevance,
    ...(i < pinned ? { pinned: true } : {}),
    ...(l.team === null ? {} : { writer: { name: l.team } }),
    writtenAt: hoursAgo(l.days * 24),
  })),
);
const data = fc.record({ learnings, ranked: fc.boolean(), proposals: fc.nat({ max: 12 }), handoff: fc.boolean() }).map(
  ({ learnings, ranked, proposals, handoff }): ContextData =>
    contextData({
      learnings,
      learningsRanked: ranked,
      learningCounts: kindCounts(learnings.length + 3, 2, 1),
      proposals: Array.from({ length: Math.min(proposals, 5) }, (_, i) => ({ id: `p${i}-0000`, kind: "insight" as const, content: `Proposal ${i} [Warning: x]`, confidence: 0.5 })),
      proposalCount: proposals,
      ...(handoff ? {} : { handoff: null }),
    }),
);
const limits = fc.record({
  budget: fc.oneof(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 400, max: 3000 })),
  maxChars: fc.oneof(fc.constant(9500), fc.integer({ min: 1, max: 3000 })),
  source: fc.constantFrom("startup" as const, "compact" as const),
  mode: fc.constantFrom("full" as const, "complement" as const),
});

describe("packing with lines rendered on demand", () => {
  it("answers byte for byte what rendering every line and packing them all did (random stores, budgets, limits)", () => {
    fc.assert(
      fc.property(data, limits, fc.constantFrom(countTokens, countTokensByLine), (d, l, count) => {
        const options = contextOptions(l);
        const before = referencePack(d, options, count);
        const { built, shownLearningIds } = packContext(d, options, count);
        expect(built.context).toBe(before.text);
        expect(built.tokenEstimate).toBe(before.tokenEstimate);
        expect(built.sections).toEqual(before.sections);
        expect(shownLearningIds).toEqual(before.shown);
      }),
      { numRuns: 600, seed: 25 },
    );
  });

  it("packs any sections as the old packer did, at budgets where a line of a token or two decides", () => {
    const names = ["identity", "task", "learnings"] as const;
    const section = fc.record({
      items: fc.array(fc.constantFrom("", ">", "a", "- b", "> c d", "- [pattern] e (0.5)", "x".repeat(30), "f\ng", "  h"), { maxLength: 8 }),
      fillFrom: fc.option(fc.nat({ max: 4 })),
      unlisted: fc.nat({ max: 2 }),
      footer: fc.constantFrom(undefined, "", "Review: x"),
      omitted: fc.boolean(),
      bounded: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(section, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 200 }), (sections, budget, maxChars) => {
        const drafts = sections.map((s, k) => ({
          name: names[k]!,
          header: (shown: number) => `## S${k} (${shown})`,
          items: s.items,
          ...(s.fillFrom === null ? {} : { fillFrom: s.fillFrom }),
          ...(s.unlisted ? { unlisted: s.unlisted } : {}),
          ...(s.footer === undefined ? {} : { footer: s.footer }),
          ...(s.omitted ? { omitted: (n: number) => `${n} more` } : {}),
          // A weaker bound than the line's own, as a section's may be.
          ...(s.bounded ? { fewest: (i: number) => Math.max(0, fewestTokens(s.items[i]!) - (i % 2)) } : {}),
        }));
        const limits = { budget, maxChars, count: countTokens };
        expect(packSections(drafts, limits)).toEqual(referencePackSections(drafts, limits));
      }),
      { numRuns: 3000, seed: 25 },
    );
  });

  it("renders only the learnings it considers: one past the budget by its content alone is never rendered", () => {
    const rendered = new Set<number>();
    const long = "word ".repeat(1000);
    const ls: ContextLearning[] = Array.from({ length: 40 }, (_, i) => ({ id: `l${i}`, kind: "pattern", content: i % 2 ? long : `Short learning ${i}`, confirmed: true, relevance: 1 - i / 100 }));
    const sections = renderSections(contextData({ learnings: ls }), { mode: "full" }).map((s) =>
      s.name === "learnings" ? { ...s, items: renderedOnDemand(ls.length, (i) => (rendered.add(i), learningLine(ls[i]!, contextNow))) } : s,
    );
    const packed = packSections(sections, { budget: 600, maxChars: 9500, count: countTokens });
    expect(packed.kept.learnings).toEqual(Array.from({ length: 20 }, (_, i) => 2 * i));
    // The long ones (odd) cannot fit: none was rendered.
    expect([...rendered].filter((i) => i % 2)).toEqual([]);
  });

  it("packs learnings with no facts (recent, confirmed, the reader's own) at every budget as the old packer did", () => {
    const ls: ContextLearning[] = Array.from({ length: 12 }, (_, i) => ({ id: `l${i}`, kind: "pattern", content: `Recent learning ${i} (see ${"x".repeat(i)})`, confirmed: true, relevance: null }));
    const d = contextData({ learnings: ls, learningsRanked: false, handoff: null, proposals: [], proposalCount: 0 });
    for (let budget = 1; budget <= 260; budget++) {
      const options = contextOptions({ budget });
      const before = referencePack(d, options, countTokens);
      const { built } = packContext(d, options, countTokensByLine);
      expect(built.context).toBe(before.text);
      expect(built.tokenEstimate).toBe(before.tokenEstimate);
    }
  });

  it("stops at a budget filled to the token: no later item is even bounded", () => {
    const asked: number[] = [];
    const items = ["- a", "- b", "- c", "- d", "- e"];
    const draft = (fewest?: (i: number) => number): SectionDraft => ({ name: "learnings", header: () => "## Items", items, fillFrom: 0, ...(fewest ? { fewest } : {}) });
    // The header and two items, each with its newline: the budget is full after "- b".
    const budget = countTokens("## Items") + 1 + 2 * (countTokens("- a") + 1);
    const packed = packSections([draft((i) => (asked.push(i), 1))], { budget, maxChars: 9500, count: countTokens });
    expect(packed.text).toBe("## Items\n- a\n- b");
    expect(asked).toEqual([0, 1]);
  });
});

describe("the bounds that let a line go unrendered or uncounted", () => {
  it("a learning's bound from its content never exceeds fewestTokens of its line, which never exceeds its count", () => {
    fc.assert(
      fc.property(learnings, (ls) => {
        for (const l of ls) {
          const line = learningLine(l, contextNow);
          expect(learningLineFewest(l)).toBeLessThanOrEqual(fewestTokens(line));
          expect(fewestTokens(line)).toBeLessThanOrEqual(countTokens(line));
        }
      }),
      { numRuns: 500, seed: 25 },
    );
  });
});
