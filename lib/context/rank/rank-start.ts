import type { LearningCandidateRow } from "../../db/queries/context-candidates";
import type { ContextLearning } from "../context-types";
import { B, K1 } from "../search/bm25-search";
import { fuseMatches } from "./fuse-rankings";
import { contextLearning, rankLearnings } from "./rank-learnings";

/** What a session start's learnings are ranked from, all read before: the hints' matches, the nearest by meaning, the newest, the pinned. */
export type StartCandidates = { matches: LearningCandidateRow[]; nearest: Parameters<typeof fuseMatches>[1]; recent: LearningCandidateRow[]; pinned: LearningCandidateRow[] };

/**
 * The session start's learnings in the order the context lists them: no I/O. The matches (by words,
 * and by meaning where an embedder is there) ranked, recent ones filling what they leave, pinned ones
 * ahead of all.
 */
export function rankStart(c: StartCandidates, options: { reader: string; limit: number }): { learnings: ContextLearning[]; ranked: boolean } {
  // Recent learnings only fill what the matches leave.
  const recent = c.matches.length + c.nearest.length < options.limit ? c.recent : [];
  const matches = withoutLengthPenalty(fuseMatches(c.matches, c.nearest));
  // The matches first; recent confirmed learnings fill the budget they leave (a paraphrase that
  // shares no word with the hints can still be among them).
  const matched = new Set(matches.map((l) => l.id));
  const ranked = rankLearnings([...matches, ...recent.filter((l) => !matched.has(l.id))], options.reader);
  // Pinned ones lead, whatever the hints: the packer keeps them first and says so when they do not fit.
  const first = c.pinned.map((l) => contextLearning(l, options.reader, null, true));
  return { ...ranked, learnings: [...first, ...ranked.learnings] };
}

/**
 * The matches' scores as BM25 gives them without its length normalisation (b = 0 rather than FTS5's and
 * the index's B): a learning that says more about its subject is not worth less for each word of the
 * hints it holds. Short generic learnings (a person's "write the failing test first") outranked longer
 * ones that matter on words like "fix" and "test" (issue 26). Exact for a word a learning holds once
 * (most words of a learning or two sentences), the factor being the same for every word of a match:
 * (1 + K1(1 − B + B·r)) / (1 + K1), r its words over the matches' mean. Both search paths (FTS5 and the
 * index in memory) answer B's scores, so both rank alike; the prompt stage keeps B's scores, which its
 * floor is measured in.
 */
function withoutLengthPenalty<T extends { content: string; score?: number }>(matches: T[]): T[] {
  const lengths = matches.map((m) => wordCount(m.content));
  const mean = lengths.reduce((sum, n) => sum + n, 0) / Math.max(1, lengths.length) || 1;
  return matches.map((m, i) => (m.score === undefined ? m : { ...m, score: (m.score * (1 + K1 * (1 - B + (B * lengths[i]!) / mean))) / (1 + K1) }));
}

/** Runs of non-whitespace in a text (ASCII whitespace: what separates a learning's words), counted without allocating. */
function wordCount(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || (c >= 9 && c <= 13);
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}
