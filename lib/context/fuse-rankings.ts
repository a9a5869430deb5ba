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
