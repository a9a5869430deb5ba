import type { DbOrTx } from "../db/client";
import { storeWordCounts } from "../db/queries/learning-counts";
import { findLearningCandidates } from "../db/queries/learning-search";
import type { Owner } from "../db/queries/scope";
import { ftsExpression, searchWords } from "../learnings/fts-query";
import type { LearningKind } from "../rules";
import { MIN_SHARED_WORDS, similarScore } from "./near-duplicate";

/** At most this many similar learnings are offered per proposal: the reviewer reads each one. */
export const MAX_SIMILAR_LEARNINGS = 3;
/** BM25's best matches the word overlap then judges. */
const CANDIDATES = 20;
/**
 * How many rows the words searched for may match together. BM25 is computed for every matching row, so
 * this bounds a lookup's cost on a large store; the rarest words go first, and they are the ones a
 * learning about the same subject shares.
 */
export const MAX_SIMILAR_MATCHES = 5_000;

export type SimilarLearning = { id: string; kind: LearningKind; content: string; pinned: boolean };
type Proposal = Owner & { content: string };

/**
 * For each proposal, the current learnings of its own scope (its project's, or its owner's personal
 * ones) about the same subject (see similarScore): what accepting it may supersede, most similar first,
 * near-duplicates included (one of those may be what the proposal restates).
 *
 * A page of the queue asks for up to 50 at once, so each searches for its rarest words only (see
 * MAX_SIMILAR_MATCHES); how many learnings have each word is read once for the whole page, in one
 * statement.
 */
export async function similarLearnings(db: DbOrTx, proposals: Proposal[]): Promise<SimilarLearning[][]> {
  const words = proposals.map((p) => searchWords(p.content));
  const all = [...new Set(words.flat())];
  if (!all.length) return proposals.map(() => []);
  const frequencies = await storeWordCounts(db, { terms: all });
  return Promise.all(
    proposals.map(async (proposal, i) => {
      const match = ftsExpression(rarest(words[i]!, frequencies));
      if (!match) return [];
      const candidates = await findLearningCandidates(db, { userId: proposal.userId, projectId: proposal.projectId, match, limit: CANDIDATES });
      return candidates
        .flatMap((l) => {
          const score = similarScore(l.content, proposal.content);
          return score === null ? [] : [{ l, score }];
        })
        .sort((a, b) => b.score - a.score)
        .slice(0, MAX_SIMILAR_LEARNINGS)
        .map(({ l }) => ({ id: l.id, kind: l.kind, content: l.content, pinned: l.pinned }));
    }),
  );
}

/**
 * The words no learning has left out, then the rarest kept while their matches stay within
 * maxMatches (MAX_SIMILAR_MATCHES unless told); two at least, since a similar learning shares two words or more.
 */
export function rarest(words: string[], frequencies: Map<string, number>, maxMatches = MAX_SIMILAR_MATCHES): string[] {
  const present = words.filter((w) => (frequencies.get(w) ?? 0) > 0).sort((a, b) => frequencies.get(a)! - frequencies.get(b)!);
  const kept: string[] = [];
  let matches = 0;
  for (const w of present) {
    matches += frequencies.get(w)!;
    if (matches > maxMatches && kept.length >= MIN_SHARED_WORDS) break;
    kept.push(w);
  }
  return kept;
}
