import type { Db } from "../../db/client";
import { contextLearnings, type LearningCandidateRow } from "../../db/queries/context-candidates";
import { wordCountsRead } from "../../db/queries/learning-counts";
import type { Owner } from "../../db/queries/scope";
import { ftsExpression } from "../../learnings/fts-query";
import { MAX_CANDIDATE_ROWS } from "../gather/candidate-limit";
import type { ContextLearning } from "../context-types";
import { fuseMatches } from "../rank/fuse-rankings";
import { nearestTo, type Nearest } from "../read/nearest";
import { selectTerms, TERM_SELECTION } from "../hints/hint-query";
import { promptTerms } from "../hints/prompt-terms";
import { rankLearnings } from "../rank/rank-learnings";

/**
 * How good a match must be to count as relevant to a prompt, in words found in one learning only: its
 * BM25 score (FTS5's: over the words it shares with the prompt, each word's inverse document
 * frequency weighted by how much of the learning it is) at least this many times such a word's. One
 * word alone rarely passes, two uncommon ones do. Measured by bench/prompt-floor.ts (BENCHMARKS.md):
 * at 1.5, 0.68 of the labelled learnings pass (0.82 with no floor) with ~2 others a prompt (~8), and a
 * prompt of another project brings something in 4 times of 36 (36 of 36). The start stage has no floor
 * (it fills its budget with the best there is); a prompt's answer is empty instead: the session start
 * gave the broad picture, a prompt adds only what clearly fits.
 */
export const PROMPT_MATCH_WORDS = 1.5;

/** FTS5's inverse document frequency of a word found in one of `storeSize` learnings. */
const uniqueWordWeight = (storeSize: number) => Math.log(Math.max(1, storeSize - 0.5) / 1.5);

/** The most a learning's embedding may be from the prompt's (cosine distance) to count as relevant. */
export const MAX_PROMPT_VECTOR_DISTANCE = 0.45;

/** A prompt's words, as an FTS5 expression (the ones the store has, too common ones left out), and the score a match needs. */
export type PromptMatch = { prompt: string; terms: string[]; match: string | null; minScore: number };

/**
 * The prompt's words, with the read (for the request's first batch) of how many learnings have each:
 * store-wide, so read before the project is known. Counts stop past selectTerms' cutoff, where a word
 * is left out whatever its count, so choosing from them is choosing from the full counts.
 */
export function promptWords(db: Db, prompt: string) {
  const terms = promptTerms(prompt);
  const cap = { share: TERM_SELECTION.maxShare, least: TERM_SELECTION.minCutoff };
  return { terms, counts: terms.length ? wordCountsRead(db, { terms, cap }) : undefined };
}

/** The prompt's match, from its words, their counts (undefined: no words) and the store's size (read in one batch). */
export function promptMatch(prompt: string, terms: string[], counts: Map<string, number> | undefined, storeSize: number): PromptMatch {
  if (!counts) return { prompt, terms, match: null, minScore: Infinity };
  return { prompt, terms, match: ftsExpression(selectTerms(terms, counts, storeSize)), minScore: PROMPT_MATCH_WORDS * uniqueWordWeight(storeSize) };
}

/** What a prompt's learnings are ranked from: BM25's matches of its words, and the embedder's nearest when there is one. */
export type PromptCandidates = { bm25: LearningCandidateRow[]; nearest: Nearest };

/**
 * The prompt's candidates: enough rows that what the session already has (`seen` of them) cannot crowd
 * the new ones out. Reads only; relevantUnseen ranks them.
 */
export async function readPromptCandidates(
  db: Db,
  owner: Owner,
  { prompt, terms, match }: PromptMatch,
  options: { limit: number; seen: number; embedQuery?: (text: string) => Promise<number[] | null>; vectorWidth: number | null },
): Promise<PromptCandidates> {
  const limit = Math.min(MAX_CANDIDATE_ROWS, options.limit + options.seen);
  const [bm25, nearest] = await Promise.all([
    match ? contextLearnings(db, { ...owner, match, limit }) : [],
    terms.length ? nearestTo(db, options.embedQuery, prompt, owner, options.vectorWidth) : [],
  ]);
  return { bm25, nearest };
}

/**
 * The learnings relevant to a prompt that `exclude` (what the session was given) does not hold, best
 * first, each only where the match is good enough; no I/O. None relevant: an empty list, never the
 * best of bad matches.
 */
export function relevantUnseen(
  { bm25, nearest }: PromptCandidates,
  minScore: number,
  options: { limit: number; exclude: Set<string>; reader: string },
): ContextLearning[] {
  // Pinned and superseded learnings are never candidates (rankable() in the candidate queries): pinned
  // ones were in the session's start context already.
  const fresh = (c: { id: string }) => !options.exclude.has(c.id);
  const strong = bm25.filter((c) => fresh(c) && c.score !== undefined && -c.score >= minScore);
  const close = nearest.filter((c) => fresh(c) && c.distance <= MAX_PROMPT_VECTOR_DISTANCE);
  return rankLearnings(fuseMatches(strong, close), options.reader).learnings.slice(0, options.limit);
}
