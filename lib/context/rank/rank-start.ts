import type { LearningCandidateRow } from "../../db/queries/context-candidates";
import type { ContextLearning } from "../context-types";
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
  const matches = fuseMatches(c.matches, c.nearest);
  // The matches first; recent confirmed learnings fill the budget they leave (a paraphrase that
  // shares no word with the hints can still be among them).
  const matched = new Set(matches.map((l) => l.id));
  const ranked = rankLearnings([...matches, ...recent.filter((l) => !matched.has(l.id))], options.reader);
  // Pinned ones lead, whatever the hints: the packer keeps them first and says so when they do not fit.
  const first = c.pinned.map((l) => contextLearning(l, options.reader, null, true));
  return { ...ranked, learnings: [...first, ...ranked.learnings] };
}
