import type { Db } from "../db/client";
import { contextLearnings } from "../db/queries/context-candidates";
import { countAllLearnings, documentFrequencies } from "../db/queries/learning-counts";
import type { Owner } from "../db/queries/scope";
import { ftsExpression, searchWords } from "../learnings/fts-query";
import type { ContextLearning } from "./context-types";
import { fuseMatches } from "./fuse-rankings";
import { nearestTo } from "./gather-context";
import { selectTerms } from "./hint-query";
import { rankLearnings, type LearningCandidate } from "./rank-learnings";

/**
 * How good a match must be to count as relevant to a prompt: its BM25 score (FTS5's, the sum over the
 * words it shares with the prompt of each word's inverse document frequency, weighted by how much of
 * the learning it is) at least this. A word in 1 of 20 learnings weighs about 2.6, in 1 of 200 about 5:
 * one rare word or two uncommon ones pass, a word most learnings share does not. The start stage has
 * no such floor (it fills its budget with the best there is); a prompt's answer is empty instead.
 */
export const MIN_PROMPT_MATCH_SCORE = 3;

/** The most a learning's embedding may be from the prompt's (cosine distance) to count as relevant. */
export const MAX_PROMPT_VECTOR_DISTANCE = 0.45;

/**
 * Words of a conversation that say nothing about its subject. BM25 weighs common words down, but
 * a small store may hold "please" or "could" once, and one such word must not make a match.
 */
const CHAT_WORDS = new Set(
  "please thanks thank hi hello hey ok okay sure can could would should shall may might must let lets want wanted need needs like just also now then again here still really very much more some any all every get got make made look see check think know tell show give go going want try".split(" "),
);

/** As many words as the start stage searches its hints for. */
const MAX_PROMPT_TERMS = 32;

/**
 * The prompt's words worth searching for, in order, without conversational filler. Not the start
 * stage's hint filter: "merge", "feature" or "task" name a branch's kind but a prompt's subject.
 */
export function promptTerms(prompt: string): string[] {
  return searchWords(prompt, MAX_PROMPT_TERMS * 2)
    .filter((w) => !CHAT_WORDS.has(w))
    .slice(0, MAX_PROMPT_TERMS);
}

/** The prompt's words as an FTS5 expression: the ones the store has, too common ones left out. */
async function promptMatch(db: Db, terms: string[]): Promise<string | null> {
  if (!terms.length) return null;
  const [frequencies, storeSize] = await Promise.all([documentFrequencies(db, { terms }), countAllLearnings(db)]);
  return ftsExpression(selectTerms(terms, frequencies, storeSize));
}

/**
 * Pinned learnings are in every context of their project from the session's start (issue 14, item 2):
 * the prompt stage never gives them again. This is the one place they are left out; it takes effect
 * once the candidate rows carry `pinned`.
 */
const notPinned = (candidate: object) => (candidate as { pinned?: unknown }).pinned !== true;

/**
 * The learnings relevant to a prompt that `exclude` (what the session was given) does not hold, best
 * first: BM25 over the prompt's words, and the embedder's nearest when there is one, each only where
 * the match is good enough. None relevant: an empty list, never the best of bad matches.
 */
export async function relevantUnseen(
  db: Db,
  owner: Owner,
  prompt: string,
  options: { limit: number; exclude: Set<string>; embedQuery?: (text: string) => Promise<number[] | null> },
): Promise<ContextLearning[]> {
  const terms = promptTerms(prompt);
  const match = await promptMatch(db, terms);
  // Enough rows that what the session already has cannot crowd the new ones out.
  const limit = Math.min(200, options.limit + options.exclude.size);
  const fresh = (c: LearningCandidate & object) => !options.exclude.has(c.id) && notPinned(c);
  const [bm25, nearest] = await Promise.all([
    match ? contextLearnings(db, { ...owner, match, limit }) : [],
    terms.length && options.embedQuery ? nearestTo(db, options.embedQuery, prompt, owner) : [],
  ]);
  const strong = bm25.filter((c) => fresh(c) && c.score !== undefined && -c.score >= MIN_PROMPT_MATCH_SCORE);
  const close = nearest.filter((c) => fresh(c) && c.distance <= MAX_PROMPT_VECTOR_DISTANCE);
  return rankLearnings(fuseMatches(strong, close)).learnings.slice(0, options.limit);
}
