import { KIND_INFO, LEARNING_KINDS, type LearningKind } from "../../rules";

export type LearningCounts = Record<LearningKind, number>;

export function learningsTotal(counts: LearningCounts): number {
  return LEARNING_KINDS.reduce((total, kind) => total + counts[kind], 0);
}

/**
 * The session state's count line, kinds in their usual order: "Learnings: 3 patterns, 1 insight,
 * 2 self-knowledge". A kind with none is left out (the line stays short); with none at all, it says so.
 */
export function learningCountsLine(counts: LearningCounts): string {
  const parts = LEARNING_KINDS.filter((kind) => counts[kind] > 0).map((kind) => {
    const n = counts[kind];
    return `${n} ${n === 1 ? KIND_INFO[kind].badge : KIND_INFO[kind].plural}`;
  });
  return `Learnings: ${parts.length ? parts.join(", ") : "none stored"}`;
}
