import type { DbOrTx } from "../db/client";
import { findLearningCandidates } from "../db/queries/learning-search";
import type { Owner } from "../db/queries/scope";
import { ftsQuery } from "../learnings/fts-query";
import type { LearningKind } from "../rules";
import { isSimilar, overlap } from "./near-duplicate";

/** At most this many similar learnings are offered per proposal: the reviewer reads each one. */
export const MAX_SIMILAR_LEARNINGS = 3;
/** BM25's best matches the word overlap then judges. */
const CANDIDATES = 20;

export type SimilarLearning = { id: string; kind: LearningKind; content: string; pinned: boolean };

/**
 * Current learnings of the proposal's own scope (its project's, or its owner's personal ones) that
 * say something about the same subject (see isSimilar): what accepting it may supersede. Most
 * similar first; near-duplicates included, since one of those may be what the proposal restates.
 */
export async function similarLearnings(db: DbOrTx, proposal: Owner & { content: string }): Promise<SimilarLearning[]> {
  const match = ftsQuery(proposal.content);
  if (!match) return [];
  const candidates = await findLearningCandidates(db, { userId: proposal.userId, projectId: proposal.projectId, match, limit: CANDIDATES });
  return candidates
    .filter((l) => isSimilar(l.content, proposal.content))
    .map((l) => ({ l, score: overlap(l.content, proposal.content).score }))
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_SIMILAR_LEARNINGS)
    .map(({ l }) => ({ id: l.id, kind: l.kind, content: l.content, pinned: l.pinned }));
}
