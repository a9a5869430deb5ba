/**
 * How many learnings a context reads as candidates for a token budget. A learning's line is rarely
 * under 15 tokens, so more than budget ÷ 15 could never be shown; the packer decides how many are.
 */
const TOKENS_PER_LEARNING = 15;
/** The most candidate rows one search reads, however large the budget. */
export const MAX_CANDIDATE_ROWS = 200;

/** The session start's candidates: at least 20 (the fill of recent ones), at most MAX_CANDIDATE_ROWS. */
export function startCandidates(budget: number): number {
  return Math.min(MAX_CANDIDATE_ROWS, Math.max(20, Math.ceil(budget / TOKENS_PER_LEARNING)));
}

/**
 * The prompt stage's: at least 10 (its budget is small). Not capped here: the rows read are
 * (lib/context/prompt/prompt-learnings.ts, with what the session already has added).
 */
export function promptCandidates(budget: number): number {
  return Math.max(10, Math.ceil(budget / TOKENS_PER_LEARNING));
}
