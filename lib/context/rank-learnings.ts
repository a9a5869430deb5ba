import type { ContextLearning, LearningKind } from "./context-types";

export type LearningCandidate = {
  id: string;
  kind: LearningKind;
  content: string;
  confirmed: boolean;
  createdAt: Date;
  /** SQLite FTS5 bm25(): lower (more negative) is better; undefined without hints. */
  score?: number;
};

/** How much an unconfirmed learning's relevance counts against a confirmed one's. */
export const UNCONFIRMED_WEIGHT = 0.75;

/**
 * Orders candidates for the context. With hint matches: relevance (BM25 relative to the best match),
 * confirmed learnings weighted ahead of unconfirmed ones, newer first on ties; then the unmatched
 * candidates in the order given (confirmed first, newest), which fill whatever budget the matches
 * leave. Without matches: that order alone.
 */
export function rankLearnings(candidates: LearningCandidate[]): { learnings: ContextLearning[]; ranked: boolean } {
  const scored = candidates.filter((c) => c.score !== undefined);
  if (!scored.length) {
    return { learnings: candidates.map((c) => ({ id: c.id, kind: c.kind, content: c.content, confirmed: c.confirmed, relevance: null })), ranked: false };
  }
  const best = Math.max(...scored.map((c) => -c.score!), Number.EPSILON);
  const rest = candidates.filter((c) => c.score === undefined);
  return {
    ranked: true,
    learnings: scored
      .map((c) => {
        const relevance = Math.max(0, -c.score!) / best;
        return { c, relevance, weighted: relevance * (c.confirmed ? 1 : UNCONFIRMED_WEIGHT) };
      })
      .sort((a, b) => b.weighted - a.weighted || b.c.createdAt.getTime() - a.c.createdAt.getTime() || a.c.id.localeCompare(b.c.id))
      .map(({ c, relevance }): ContextLearning => ({ id: c.id, kind: c.kind, content: c.content, confirmed: c.confirmed, relevance: Math.round(relevance * 100) / 100 }))
      .concat(rest.map((c) => ({ id: c.id, kind: c.kind, content: c.content, confirmed: c.confirmed, relevance: null }))),
  };
}
