import type { Db } from "../db/client";
import { readAll } from "../db/queries/batch-reads";
import { matchesRead } from "../db/queries/context-candidates";
import { wordCountsRead } from "../db/queries/learning-counts";
import type { Owner } from "../db/queries/scope";
import { NO_TOPIC, type SessionTopic } from "../db/queries/session-served";
import { ftsExpression } from "../learnings/fts-query";
import { stem } from "../proposals/near-duplicate";
import type { ContextLearning } from "./context-types";
import { fuseMatches } from "./fuse-rankings";
import { nearestTo } from "./gather-context";
import { selectTerms, TERM_SELECTION } from "./hint-query";
import { promptTerms } from "./prompt-terms";
import { rankLearnings } from "./rank-learnings";

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

/**
 * A prompt's words, as an FTS5 expression (the ones the store has, too common ones left out), and the
 * score a match needs; `session`: the same with the session's words added (null: the prompt is not
 * about what the session is about, or the session told nothing), and the score its matches need.
 */
export type PromptMatch = {
  prompt: string;
  terms: string[];
  match: string | null;
  minScore: number;
  session: { match: string; minScore: number; shared: boolean } | null;
};

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

const knob = (name: string, fallback: number) => {
  const v = process.env[name];
  return v === undefined || v === "" ? fallback : Number(v);
};
export const P26 = {
  about: process.env.P26_ABOUT ?? "stem",
  floor: knob("P26_FLOOR", 1.5),
  rel: knob("P26_REL", 0),
  max: knob("P26_MAX", 100),
  tagWeight: knob("P26_TAGW", 0.5),
  gate: knob("P26_GATE", 0),
};

/**
 * The prompt's match, from its words, their counts (undefined: no words), the store's size (read in
 * one batch) and the session's words (sessionTerms, recorded at its start). The prompt is about what
 * the session is about when one of its words shares a stem with one of the session's.
 */
export function promptMatch(prompt: string, terms: string[], counts: Map<string, number> | undefined, storeSize: number, topic: SessionTopic = NO_TOPIC): PromptMatch {
  if (!counts) return { prompt, terms, match: null, minScore: Infinity, session: null };
  const own = selectTerms(terms, counts, storeSize);
  const unit = uniqueWordWeight(storeSize);
  const said = new Set(terms.map(stem));
  const aboutWords = process.env.P26_ABOUTALL ? [...topic.words, ...topic.related] : topic.words;
  const shared = aboutWords.some((t) => said.has(stem(t)));
  const session = [...topic.words, ...(process.env.P26_FEEDBACK ? topic.related : [])];
  const words = [...new Set([...own, ...session])];
  const both = P26.about === "never" || !session.length ? null : ftsExpression(words);
  return {
    prompt,
    terms,
    match: ftsExpression(own),
    minScore: PROMPT_MATCH_WORDS * unit,
    session: both ? { match: both, minScore: P26.floor * unit, shared } : null,
  };
}

/**
 * The learnings relevant to a prompt that `exclude` (what the session was given) does not hold, best
 * first: BM25 over the prompt's words, and the embedder's nearest when there is one, each only where
 * the match is good enough. None relevant: an empty list, never the best of bad matches.
 */
export async function relevantUnseen(
  db: Db,
  owner: Owner,
  { prompt, terms, match, minScore, session }: PromptMatch,
  options: { limit: number; exclude: Set<string>; embedQuery?: (text: string) => Promise<number[] | null>; vectorWidth: number | null },
): Promise<ContextLearning[]> {
  // Enough rows that what the session already has cannot crowd the new ones out.
  const limit = Math.min(200, options.limit + options.exclude.size);
  // Pinned and superseded learnings are never candidates (rankable() in the candidate queries): pinned
  // ones were in the session's start context already.
  const fresh = (c: { id: string }) => !options.exclude.has(c.id);
  const reads = {
    own: match ? matchesRead(db, { ...owner, match, limit }) : undefined,
    both: session ? matchesRead(db, { ...owner, match: session.match, limit, tagWeight: P26.tagWeight }) : undefined,
  };
  const [found, nearest] = await Promise.all([
    readAll(db, reads),
    terms.length ? nearestTo(db, options.embedQuery, prompt, owner, options.vectorWidth) : [],
  ]);
  const scored = (c: { score?: number }) => (c.score === undefined ? 0 : -c.score);
  const strong = (found.own?.candidates ?? []).filter((c) => fresh(c) && scored(c) >= minScore);
  const close = nearest.filter((c) => fresh(c) && c.distance <= MAX_PROMPT_VECTOR_DISTANCE);
  const own = rankLearnings(fuseMatches(strong, close), owner.userId).learnings;
  const about = session && (P26.about === "always" || session.shared || (P26.about === "strong" && strong.length > 0));
  if (!about || !found.both) return own.slice(0, options.limit);
  // The session's words with the prompt's: a learning matching both scores highest.
  const rows = found.both.candidates;
  const unseen = rows.filter(fresh);
  const best = unseen.length ? scored(unseen[0]!) : 0;
  const top = rows.length ? scored(rows[0]!) : 0;
  const floor = Math.max(session.minScore, P26.rel * (process.env.P26_RELALL ? top : best));
  // The weakest of what the session was shown that the search finds too: the continuation is spent only when its best comes near it.
  const shown = rows.filter((c) => !fresh(c)).map(scored);
  if (P26.gate > 0 && shown.length && best < P26.gate * Math.min(...shown)) return own.slice(0, options.limit);
  const kept = new Set(own.map((l) => l.id));
  const more = unseen.filter((c) => !kept.has(c.id) && scored(c) >= floor).slice(0, P26.max);
  const continued = rankLearnings(more, owner.userId).learnings;
  return [...own, ...continued].slice(0, options.limit);
}
