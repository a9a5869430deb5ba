import { describe, expect, it } from "vitest";
import { buildContext } from "@/lib/context/pack/build-context";
import { learningCountsLine, learningsTotal } from "@/lib/context/pack/learning-counts";
import { countTokens } from "@/lib/context/pack/tokenizer";
import { KIND_INFO, LEARNING_KINDS } from "@/lib/rules";
import { contextData as data, kindCounts, contextOptions as options } from "../support/context-data";

// The session state's statistics (pai-seed F-005 scenario 4) and the identity's voice, through the
// pure formatters: data in, text out.

describe("learningCountsLine", () => {
  it.each([
    [kindCounts(3, 2, 1), "Learnings: 3 patterns, 2 insights, 1 self-knowledge"],
    [kindCounts(1, 1, 1), "Learnings: 1 pattern, 1 insight, 1 self-knowledge"],
    [kindCounts(0, 0, 2), "Learnings: 2 self-knowledge"],
    [kindCounts(12, 0, 0), "Learnings: 12 patterns"],
    [kindCounts(0, 0, 0), "Learnings: none stored"],
  ])("%j → %s", (counts, line) => expect(learningCountsLine(counts)).toBe(line));

  it("names every kind by its KIND_INFO words, in LEARNING_KINDS order", () => {
    const line = learningCountsLine(kindCounts(2, 2, 2));
    expect(line).toBe(`Learnings: ${LEARNING_KINDS.map((kind) => `2 ${KIND_INFO[kind].plural}`).join(", ")}`);
  });

  it("the total is the sum of the kinds", () => {
    expect(learningsTotal(kindCounts(30, 6, 4))).toBe(40);
    expect(buildContext(data(), options(), countTokens).learningsTotal).toBe(40);
  });
});

/** The lines of one section of a context, from its header to the blank line after it. */
function sectionOf(context: string, header: string): string[] {
  const start = context.indexOf(header);
  if (start < 0) return [];
  const end = context.indexOf("\n\n", start);
  return context.slice(start, end < 0 ? undefined : end).split("\n");
}

describe("the session state and identity sections", () => {
  it("carry the learning counts, the last session, the queue and the seed version; identity the voice", () => {
    const context = buildContext(data(), options(), countTokens).context;
    expect(sectionOf(context, "## Session state")).toEqual([
      "## Session state",
      "Last session: 30 h ago",
      "Learnings: 30 patterns, 6 insights, 4 self-knowledge",
      "Active projects: web, blog",
      "Queued sessions in web: 2 (`baton pickup`)",
      "Seed version: 1.0.0",
    ]);
    expect(sectionOf(context, "## Identity")).toEqual([
      "## Identity",
      "AI name: Ivy · principal: Jens",
      'Catchphrase: "Ivy here."',
      "Voice: pNInz6obpgDQ",
      "Preferences: response style concise · timezone Europe/Zurich",
    ]);
  });

  it("no seed: no version line; no voice: no voice line; an empty store says so", () => {
    const d = data();
    const context = buildContext(
      data({
        identity: { ...d.identity!, voiceId: undefined },
        learnings: [],
        learningCounts: kindCounts(0, 0, 0),
        state: { ...d.state, seedVersion: null, activeProjects: [] },
        project: null,
      }),
      options(),
      countTokens,
    ).context;
    expect(sectionOf(context, "## Session state")).toEqual(["## Session state", "Last session: 30 h ago", "Learnings: none stored"]);
    expect(context).not.toContain("Voice:");
    expect(context).not.toContain("Seed version");
  });

  it("complement mode keeps the session state (with the counts) and leaves the voice out with identity", () => {
    const context = buildContext(data(), options({ mode: "complement" }), countTokens).context;
    expect(context).toContain("Learnings: 30 patterns, 6 insights, 4 self-knowledge");
    expect(context).not.toContain("Voice:");
  });

  it("is the lowest priority: shortened by whole lines, then dropped, before any other section loses a line", () => {
    const full = buildContext(data(), options({ budget: 32_000 }), countTokens);
    const stateLines = sectionOf(full.context, "## Session state");
    const stateTokens = full.sections.find((s) => s.name === "state")!.tokens;
    // What happens to the state as the budget shrinks, while every other section is still whole.
    const steps: string[] = [];
    for (let cut = 1; cut <= stateTokens + 20; cut++) {
      const built = buildContext(data(), options({ budget: full.tokenEstimate - cut }), countTokens);
      expect(built.tokenEstimate).toBeLessThanOrEqual(full.tokenEstimate - cut);
      const state = built.sections.find((s) => s.name === "state")!;
      const lines = sectionOf(built.context, "## Session state");
      if (state.included) {
        const kept = stateLines.length - 1 - state.omitted;
        const more = state.omitted ? [`… ${state.omitted} more ${state.omitted === 1 ? "line" : "lines"} of session state`] : [];
        expect(lines).toEqual([...stateLines.slice(0, kept + 1), ...more]);
      } else {
        expect(lines).toEqual([]);
      }
      const othersWhole = built.sections.every((s) => s.name === "state" || (s.included && s.omitted === 0));
      if (!othersWhole) {
        expect(state.included && state.omitted === 0).toBe(false);
        continue;
      }
      const step = !state.included ? "dropped" : state.omitted ? "shortened" : "whole";
      if (steps.at(-1) !== step) steps.push(step);
      if (step === "dropped") expect(built.context).toMatch(/Left out to fit the budget: session state\.$/);
    }
    expect(steps).toEqual(["shortened", "dropped"]);
  });
});
