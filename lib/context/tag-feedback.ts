import type { Db } from "../db/client";
import { contextLearnings, type LearningCandidateRow, type TermSelection } from "../db/queries/context-candidates";
import { countAllLearnings, documentFrequencies } from "../db/queries/learning-counts";
import type { Owner } from "../db/queries/scope";
import { ftsExpression } from "../learnings/fts-query";
import { FEEDBACK_TERMS, feedbackTerms, selectTerms, TERM_SELECTION } from "./hint-query";

/**
 * The session start's BM25 column weights: a hint word in a learning's tags counts as much as one in
 * its content (the default, 0.5, is kept for other searches). With the feedback below, measured on
 * both relevance sets (BENCHMARKS.md); neither helped alone as much.
 */
export const START_TAG_WEIGHT = 1;

/**
 * The hints' matches, searched again with the best matches' tags added to the hints' words
 * (feedbackTerms), or the first matches as they were when there are none to add. A context does the
 * same in its batched reads (lib/context/context-reads.ts); test/integration/term-selection.test.ts
 * checks that both find the same.
 */
export async function withTagFeedback(
  db: Db,
  owner: Owner,
  search: { match: string; terms: string[]; limit: number },
  first: LearningCandidateRow[],
  selection: TermSelection = TERM_SELECTION,
): Promise<LearningCandidateRow[]> {
  const extra = feedbackTerms(first, search.terms);
  if (!extra.length) return first;
  const [frequencies, storeSize] = await Promise.all([documentFrequencies(db, { terms: extra }), countAllLearnings(db)]);
  const added = ftsExpression(selectTerms(extra, frequencies, storeSize, selection).slice(0, FEEDBACK_TERMS));
  if (!added) return first;
  return contextLearnings(db, { ...owner, match: `${search.match} OR ${added}`, limit: search.limit, tagWeight: START_TAG_WEIGHT });
}
