import type { LearningCandidate } from "./rank-learnings";

/**
 * Reciprocal rank fusion: each ranked list gives an item 1 / (K + rank); the sums order the union.
 * It needs no score calibration between BM25 and cosine distance, only their orders. K = 60 is the
 * constant from the original paper and what most hybrid search systems use.
 */
export const RRF_K = 60;

export function fuseRankings(lists: string[][]): Map<string, number> {
  const fused = new Map<string, number>();
  for (const list of lists) {
    list.forEach((id, rank) => fused.set(id, (fused.get(id) ?? 0) + 1 / (RRF_K + rank + 1)));
  }
  return fused;
}

/**
 * BM25's matches and the embedder's nearest as one list of candidates. With vectors, their orders are
 * fused by reciprocal rank and the fused score stands in for BM25's (lower is better), so ranking
 * treats both alike; without, BM25's matches as they are.
 */
export function fuseMatches(bm25: LearningCandidate[], nearest: Omit<LearningCandidate, "score">[]): LearningCandidate[] {
  if (!nearest.length) return bm25;
  const fused = fuseRankings([bm25.map((l) => l.id), nearest.map((l) => l.id)]);
  return [...new Map([...bm25, ...nearest].map((l) => [l.id, { ...l, score: -fused.get(l.id)! }])).values()];
}
