import type { ContextData, ContextOptions, SectionReport } from "../context-types";
import { learningsTotal } from "./learning-counts";
import { packSections } from "./pack-context";
import { renderSections } from "./render-sections";

export type BuiltContext = {
  context: string;
  tokenEstimate: number;
  budget: number;
  needsSetup: boolean;
  proposalCount: number;
  learningsShown: number;
  learningsTotal: number;
  /** Pinned learnings the budget left out (the context says so too). */
  pinnedOmitted: number;
  sections: SectionReport[];
};

/** Data in, context out: no I/O, no clock (data.now), so the same input always gives the same text. */
export function buildContext(data: ContextData, options: ContextOptions, count: (text: string) => number): BuiltContext {
  return packContext(data, options, count).built;
}

/** buildContext's, with the ids of the learnings the context lists (not always the first ones: the packer may pass over a long one). */
export function packContext(data: ContextData, options: ContextOptions, count: (text: string) => number): { built: BuiltContext; shownLearningIds: string[] } {
  const packed = packSections(renderSections(data, { mode: options.mode, source: options.source }), { budget: options.budget, maxChars: options.maxChars, count });
  const shownLearningIds = (packed.kept.learnings ?? []).map((i) => data.learnings[i]!.id);
  const learningsShown = shownLearningIds.length;
  const built: BuiltContext = {
    context: packed.text,
    tokenEstimate: packed.tokenEstimate,
    budget: options.budget,
    needsSetup: data.identity === null,
    proposalCount: data.proposalCount,
    learningsShown,
    learningsTotal: learningsTotal(data.learningCounts),
    // Pinned ones lead the section and are kept from the top, so those not shown are the pinned beyond the shown count.
    pinnedOmitted: Math.max(0, data.learnings.filter((l) => l.pinned).length - learningsShown),
    sections: packed.sections,
  };
  return { built, shownLearningIds };
}
