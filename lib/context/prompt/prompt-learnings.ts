import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/client";
import { readAll } from "../../db/queries/batch-reads";
import { DEFAULT_TAG_WEIGHT, searchRead, type LearningCandidateRow, type SearchParams } from "../../db/queries/context-candidates";
import { searchInMemory } from "../search/bm25-search";
import { documentFrequencies } from "../search/reader-view";
import type { LearningIndex } from "../search/learning-index";
import { scopedWordCountsRead } from "../../db/queries/learning-counts";
import type { Owner, Reader } from "../../db/queries/scope";
import { NO_TOPIC, type SessionTopic } from "../../db/queries/session-served";
import { ftsExpression } from "../../learnings/fts-query";
import { stem } from "../../proposals/near-duplicate";
import { MAX_CANDIDATE_ROWS } from "../gather/candidate-limit";
import type { ContextLearning } from "../context-types";
import { fuseMatches } from "../rank/fuse-rankings";
import { nearestTo, type Nearest } from "../read/nearest";
import { selectTerms, TERM_SELECTION } from "../hints/hint-query";
import { promptTerms } from "../hints/prompt-terms";
import { rankLearnings } from "../rank/rank-learnings";
import { START_TAG_WEIGHT } from "../hints/tag-feedback";

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

/** FTS5's inverse document frequency of a word found in one of `size` learnings (the reader's scope). */
const uniqueWordWeight = (size: number) => Math.log(Math.max(1, size - 0.5) / 1.5);

/** The most a learning's embedding may be from the prompt's (cosine distance) to count as relevant. */
export const MAX_PROMPT_VECTOR_DISTANCE = 0.45;

/**
 * A prompt's words, as an FTS5 expression (the ones the store has, too common ones left out), and the
 * score a match needs; `session`: the prompt's words with the session's (what its start searched for),
 * when the prompt is about what the session is about, and the score such a match needs.
 */
export type PromptMatch = {
  prompt: string;
  terms: string[];
  match: string | null;
  minScore: number;
  session: { match: string; minScore: number } | null;
};

/**
 * How good a match of the prompt's and the session's words together must be, in words found in one
 * learning only (as PROMPT_MATCH_WORDS). Tuned on the development prompts (bench/relevance.ts
 * --dev-prompts, BENCHMARKS.md): lower brought more of the labels the start left out, and more
 * learnings to prompts the store does not cover (noise) in sessions whose own words the store has.
 */
export const SESSION_MATCH_WORDS = 2;

/** Where counting a prompt's word stops: past selectTerms' cutoff a word is left out whatever its count. */
const COUNT_CAP = { share: TERM_SELECTION.maxShare, least: TERM_SELECTION.minCutoff };

/** How many learnings of a scope have each of a prompt's words, and how many the scope holds. */
export type WordCounts = { counts: Map<string, number>; size: number };

/**
 * The prompt's words, with the read (for the request's first batch) of how many learnings have each:
 * read before the project is known, so among every learning the user may read (scopedWordCountsRead).
 * Counts stop past selectTerms' cutoff, where a word is left out whatever its count, so choosing from
 * them is choosing from the full counts.
 */
export function promptWords(db: Db, principal: Principal, prompt: string, index: LearningIndex | null) {
  const terms = promptTerms(prompt);
  // With the learnings' index in memory, the counts are its own (promptCounts), after the batch.
  const counts = terms.length && !index ? scopedWordCountsRead(db, { terms, cap: COUNT_CAP, reader: principal }) : undefined;
  return { terms, counts };
}

/**
 * The prompt's word counts among what the reader may read: from the index when it is current (exact;
 * `readable`: the reader's projects, read with the batch), else as the batch read them, else (the index
 * was held but fell too far behind to wait for) read now.
 */
export async function promptCounts(db: Db, principal: Principal, terms: string[], read: WordCounts | undefined, index: { index: LearningIndex; readable: readonly string[] } | null): Promise<WordCounts | undefined> {
  if (!terms.length) return undefined;
  if (index) return documentFrequencies(index.index, principal.userId, index.readable, terms);
  return read ?? (await readAll(db, { counts: scopedWordCountsRead(db, { terms, cap: COUNT_CAP, reader: principal }) })).counts;
}

/**
 * Whether a prompt is about what its session is about: one of its words shares a stem with one of
 * the session's hint words ("osprey exports keep breaking" in a session on branch fix/osprey-exports).
 * Only the hints' own words: the words the matches' tags added are the store's, not the session's.
 */
const aboutTopic = (terms: string[], topic: SessionTopic) => {
  const said = new Set(terms.map(stem));
  return topic.words.some((w) => said.has(stem(w)));
};

/**
 * The prompt's match, from its words, their counts in the reader's scope with its size (undefined: no
 * words) and what the session is about (recorded at its start: sessionTerms). On the session's
 * topic, the prompt's words are searched together with the session's (one FTS expression: BM25 sums
 * over the words, so a learning matching both ranks first): what the start ranked just below its cut
 * comes at the prompt, even when it shares no word with the prompt.
 */
export function promptMatch(prompt: string, terms: string[], words: WordCounts | undefined, topic: SessionTopic = NO_TOPIC): PromptMatch {
  if (!words) return { prompt, terms, match: null, minScore: Infinity, session: null };
  const own = selectTerms(terms, words.counts, words.size);
  const unit = uniqueWordWeight(words.size);
  const both = aboutTopic(terms, topic) ? ftsExpression([...new Set([...own, ...topic.words, ...topic.related])]) : null;
  return {
    prompt,
    terms,
    match: ftsExpression(own),
    minScore: PROMPT_MATCH_WORDS * unit,
    session: both ? { match: both, minScore: SESSION_MATCH_WORDS * unit } : null,
  };
}

/** What a prompt's learnings are ranked from: BM25's matches of its words, the embedder's nearest when there is one, and on the session's topic the matches of both sets of words. */
export type PromptCandidates = { bm25: LearningCandidateRow[]; nearest: Nearest; both?: LearningCandidateRow[] | null };

/**
 * The prompt's candidates: enough rows that what the session already has (`seen` of them) cannot crowd
 * the new ones out; on the session's topic, also the matches of the prompt's and the session's words
 * together. Both searches go in one batch. Reads only; relevantUnseen ranks them.
 */
export async function readPromptCandidates(
  db: Db,
  scope: { owner: Owner; reader: Reader },
  { prompt, terms, match, session }: PromptMatch,
  options: { limit: number; seen: number; embedQuery?: (text: string) => Promise<number[] | null>; vectorWidth: number | null; index: { index: LearningIndex; readable: readonly string[] } | null },
): Promise<PromptCandidates> {
  const { owner } = scope;
  const reader = { userId: scope.reader.userId, projectIds: scope.reader.projectIds };
  const limit = Math.min(MAX_CANDIDATE_ROWS, options.limit + options.seen);
  const searches = {
    own: match ? { ...owner, reader, match, limit, tagWeight: DEFAULT_TAG_WEIGHT } : undefined,
    // Weighed as the start weighed them: what it ranked just below its cut ranks high here too.
    both: session ? { ...owner, reader, match: session.match, limit, tagWeight: START_TAG_WEIGHT } : undefined,
  };
  const { index } = options;
  // In memory (lib/context/search) when the index is held: no statement; else both in one batch.
  const inMemory = (params: SearchParams | undefined) => (params && index ? searchInMemory(index.index, params, index.readable).candidates : undefined);
  const reads = index ? {} : { own: searches.own && searchRead(db, searches.own), both: searches.both && searchRead(db, searches.both) };
  const [found, nearest] = await Promise.all([readAll(db, reads), terms.length ? nearestTo(db, options.embedQuery, prompt, owner, options.vectorWidth) : []]);
  const own = inMemory(searches.own) ?? ("own" in found ? found.own?.candidates : undefined);
  const both = inMemory(searches.both) ?? ("both" in found ? found.both?.candidates : undefined);
  return { bm25: own ?? [], nearest, both: both ?? null };
}

/**
 * The learnings relevant to a prompt that `exclude` (what the session was given) does not hold, best
 * first, each only where the match is good enough (`minScore`); then, on the session's topic, the
 * matches of the prompt's and the session's words together that clear `sessionMinScore`. No I/O. None
 * relevant: an empty list, never the best of bad matches.
 */
export function relevantUnseen(
  { bm25, nearest, both }: PromptCandidates,
  minScore: number,
  options: { limit: number; exclude: Set<string>; reader: string; sessionMinScore?: number },
): ContextLearning[] {
  // Pinned and superseded learnings are never candidates (rankable() in the candidate queries): pinned
  // ones were in the session's start context already.
  const fresh = (c: { id: string }) => !options.exclude.has(c.id);
  const good = (min: number) => (c: { id: string; score?: number }) => fresh(c) && c.score !== undefined && -c.score >= min;
  const strong = bm25.filter(good(minScore));
  const close = nearest.filter((c) => fresh(c) && c.distance <= MAX_PROMPT_VECTOR_DISTANCE);
  const own = rankLearnings(fuseMatches(strong, close), options.reader).learnings;
  const sessionMin = options.sessionMinScore;
  if (!both || sessionMin === undefined) return own.slice(0, options.limit);
  const given = new Set(own.map((l) => l.id));
  const continued = both.filter((c) => !given.has(c.id) && good(sessionMin)(c));
  return [...own, ...rankLearnings(continued, options.reader).learnings].slice(0, options.limit);
}
