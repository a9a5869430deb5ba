import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildContext } from "@/lib/context/pack/build-context";
import type { ContextLearning } from "@/lib/context/context-types";
import { countTokens } from "@/lib/context/pack/tokenizer";
import { MIN_CONTEXT_CHARS } from "@/lib/rules";
import { contextData as data, contextOptions as options, kindCounts } from "../support/context-data";

// Pinned learnings in the packer: first in the learnings section, within budget, and never left out
// without a line saying so (and pinnedOmitted counting them).

const pinned = (n: number, words = 8): ContextLearning[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `p${i}`,
    kind: "pattern" as const,
    content: `Pinned rule ${i}: ${"keep the release checklist in mind ".repeat(words).trim()}`,
    confirmed: true,
    relevance: null,
    pinned: true,
  }));

const withPinned = (n: number, words?: number) => data({ learnings: [...pinned(n, words), ...data().learnings], learningCounts: kindCounts(30 + n, 6, 4) });

describe("pinned learnings", () => {
  it("lead the learnings section, marked, and the header counts them", () => {
    const built = buildContext(withPinned(2), options(), countTokens);
    const lines = built.context.split("\n");
    const header = lines.findIndex((l) => l.startsWith("## Relevant learnings"));
    expect(lines[header]).toBe("## Relevant learnings (14/42, 2 pinned)");
    expect(lines[header + 1]).toMatch(/^- Pinned rule 0: .* \(pinned\)$/);
    expect(lines[header + 2]).toMatch(/^- Pinned rule 1: .* \(pinned\)$/);
    expect(lines[header + 3]).toMatch(/^- Learning number 0 /);
    expect(built.pinnedOmitted).toBe(0);
    expect(built.context).not.toContain("did not fit");
  });

  it("that overflow the budget are named, with where to unpin them, and counted in pinnedOmitted", () => {
    const built = buildContext(withPinned(30, 12), options({ budget: 1200 }), countTokens);
    expect(built.tokenEstimate).toBeLessThanOrEqual(1200);
    expect(built.pinnedOmitted).toBeGreaterThan(0);
    expect(built.learningsShown).toBe(30 - built.pinnedOmitted);
    expect(built.context).toContain(
      `${built.pinnedOmitted} pinned learnings did not fit the budget; a larger budget, or unpinning some at https://baton.test/learnings?pinned=true, makes room.`,
    );
    // The ranked ones come after every pinned one, so none of them is shown.
    expect(built.context).not.toContain("Learning number 0");
    expect(built.context).toContain("12 more learnings: `baton learnings`");
  });

  it("in a section dropped whole are named in the closing line", () => {
    const built = buildContext(withPinned(3, 60), options({ budget: 300 }), countTokens);
    expect(built.sections.find((s) => s.name === "learnings")!.included).toBe(false);
    expect(built.pinnedOmitted).toBe(3);
    expect(built.context).toContain(
      "15 learnings (3 pinned learnings did not fit the budget; a larger budget, or unpinning some at https://baton.test/learnings?pinned=true, makes room)",
    );
    expect(built.context).toMatch(/^Left out to fit the budget: .*15 learnings \(3 pinned/m);
  });

  it("when even the closing line does not fit, the pinned ones are still named", () => {
    const built = buildContext(withPinned(3, 60), options({ budget: 300, maxChars: 200 }), countTokens);
    expect(built.context).not.toContain("Left out to fit the budget");
    expect(built.context).toMatch(/\n\n3 pinned learnings did not fit the budget; a larger budget, or unpinning some at https:\/\/baton\.test\/learnings\?pinned=true, makes room\.$/);
    expect(built.context.length).toBeLessThanOrEqual(200);
    expect(built.pinnedOmitted).toBe(3);
  });

  // From the smallest maxChars a request may ask for (MIN_CONTEXT_CHARS) up.
  it("are never left out silently, and both limits hold (property)", () => {
    fc.assert(
      fc.property(fc.nat(40), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 200, max: 6000 }), fc.integer({ min: MIN_CONTEXT_CHARS, max: 12_000 }), (n, words, budget, maxChars) => {
        const built = buildContext(withPinned(n, words), options({ budget, maxChars }), countTokens);
        expect(built.tokenEstimate).toBeLessThanOrEqual(budget);
        expect(built.context.length).toBeLessThanOrEqual(maxChars);
        expect(built.pinnedOmitted).toBe(Math.max(0, n - built.learningsShown));
        if (built.pinnedOmitted) expect(built.context).toContain(`${built.pinnedOmitted} pinned learning`);
      }),
      { numRuns: 120 },
    );
  });
});
