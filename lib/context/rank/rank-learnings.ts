import type { ContextLearning, LearningKind } from "../context-types";

export type LearningCandidate = {
  id: string;
  kind: LearningKind;
  content: string;
  confirmed: boolean;
  createdAt: Date;
  /** Who wrote it (lib/db/queries/context-candidates.ts writerName). */
  userId: string;
  author: string | null;
  /** SQLite FTS5 bm25(): lower (more negative) is better; undefined without hints. */
  score?: number;
};

/** A candidate as a context lists it: its writer named only when that is not the reader. */
export function contextLearning(c: LearningCandidate, reader: string, relevance: number | null, pinned?: true): ContextLearning {
  const l: ContextLearning = { id: c.id, kind: c.kind, content: c.content, confirmed: c.confirmed, relevance, writtenAt: c.createdAt };
  if (pinned) l.pinned = true;
  if (c.userId !== reader) l.writer = { name: c.author };
  return l;
}

/** How much an unconfirmed learning's relevance counts against a confirmed one's. */
export const UNCONFIRMED_WEIGHT = 0.75;

/**
 * Orders candidates for the context. With hint matches: relevance (BM25 relative to the best match),
 * confirmed learnings weighted ahead of unconfirmed ones, newer first on ties; then the unmatched
 * candidates in the order given (confirmed first, newest), which fill whatever budget the matches
 * leave. Without matches: that order alone.
 */
export function rankLearnings(candidates: LearningCandidate[], reader: string): { learnings: ContextLearning[]; ranked: boolean } {
  const scored = candidates.filter((c) => c.score !== undefined);
  if (!scored.length) return { learnings: candidates.map((c) => contextLearning(c, reader, null)), ranked: false };
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
      .map(({ c, relevance }) => contextLearning(c, reader, Math.round(relevance * 100) / 100))
      .concat(rest.map((c) => contextLearning(c, reader, null))),
  };
}
