/**
 * The session start's BM25 column weights: a hint word in a learning's tags counts as much as one in
 * its content (the default, 0.5, is kept for other searches). With the feedback of the best matches'
 * tags (feedbackTerms, searched in lib/context/read/read-context.ts's batched reads), measured on both
 * relevance sets (BENCHMARKS.md); neither helped alone as much.
 */
export const START_TAG_WEIGHT = 1;
