import { FTS_WINDOW, type LearningCandidateRow, type MatchScores, type SearchParams, type Searched } from "../../db/queries/context-candidates";
import { ftsExpression } from "../../learnings/fts-query";
import { selectTerms } from "../hints/hint-query";
import { ftsTokens } from "./fts-tokens";
import { packed, unpacked, type IndexedLearning, type LearningIndex, type Occurrences } from "./learning-index";

/**
 * searchRead's answer (lib/db/queries/context-candidates.ts) from the learnings held in memory: the same
 * words chosen, the same BM25 scores (FTS5's bm25() written out: k1 = 1.2, b = 0.75, each phrase's IDF
 * over every learning, a column's weight added once per occurrence, the document's length in both
 * columns), the same window of the best FTS_WINDOW matches before the scope, the same order. No
 * statement: the context's own reads say the store's size (`storeSize`, as metaRead reads it: what
 * choosing the words weighs them against) and that the index is current.
 * test/integration/memory-search.test.ts compares the two on generated stores.
 */
export function searchInMemory(index: LearningIndex, params: SearchParams, storeSize: number): Searched {
  const hits = new Map<string, Occurrences>();
  const hitsOf = (word: string) => hits.get(word) ?? hits.set(word, phraseHits(index, word)).get(word)!;
  let phrases: string[];
  const counted = new Map<string, number>();
  if ("match" in params) phrases = wordsOf(params.match);
  else {
    const words = params.terms.map(([term]) => term);
    for (const word of words) counted.set(word, hitsOf(word).seqs.length);
    phrases = selectTerms(words, counted, storeSize, params.selection).slice(0, params.maxTerms ?? Infinity);
  }
  const chosen = ftsExpression(phrases);
  if (chosen === null) return { candidates: [], counted, chosen, scores: new Map() };

  const own = bm25(index, phrases.map(hitsOf), params.tagWeight);
  const scored = params.scored === undefined ? own : addScores(own, params.scored);
  // FTS5 hands on its best FTS_WINDOW matches of everyone's learnings; the scope is applied to those.
  const best = scored.size <= FTS_WINDOW ? scored : new Map([...scored].sort((a, b) => a[1] - b[1] || b[0] - a[0]).slice(0, FTS_WINDOW));
  const { userId, projectId } = params;
  const found: { l: IndexedLearning; score: number }[] = [];
  best.forEach((score, seq) => {
    const l = index.get(seq);
    if (l?.rankable && ((l.projectId === null && l.userId === userId) || (projectId != null && l.projectId === projectId))) found.push({ l, score });
  });
  const top = atMost(found, params.limit);
  top.sort((a, b) => a.score - b.score || b.l.createdMs - a.l.createdMs || b.l.seq - a.l.seq);
  const candidates = top.slice(0, params.limit).map(({ l, score }) => candidateOf(l, score));
  return { candidates, counted, chosen, scores: params.scores ? best : new Map() };
}

/**
 * The matches that can be among the best `limit` (lowest score first): those scoring at most the
 * limit-th lowest score. Every one of the best `limit` is among them, and only ties at that score are
 * more, so sorting these instead of all gives the same first `limit`; most matches are cut by one
 * numeric sort of their scores.
 */
function atMost<T extends { score: number }>(found: T[], limit: number): T[] {
  if (found.length <= limit) return found;
  const scores = new Float64Array(found.length);
  for (let i = 0; i < found.length; i++) scores[i] = found[i]!.score;
  scores.sort();
  const threshold = scores[limit - 1]!;
  return found.filter((f) => f.score <= threshold);
}

/** In how many learnings a word (a phrase: FTS5 may read it as several tokens) occurs: wordCountsRead's count, exact. */
export function documentFrequencies(index: LearningIndex, words: string[]): Map<string, number> {
  return new Map(words.map((w) => [w, phraseHits(index, w).seqs.length]));
}

const K1 = 1.2;
const B = 0.75;

/**
 * Each matching learning's BM25 score (negative, best lowest, as FTS5 answers it), by seq. Summed
 * phrase by phrase in the expression's order, as FTS5 sums them, so the scores are FTS5's to the bit.
 */
function bm25(index: LearningIndex, phrases: Occurrences[], tagWeight: number): Map<number, number> {
  const rows = index.size;
  const avgdl = index.totalTokens / rows;
  const scores = new Map<number, number>();
  for (const { seqs, counts } of phrases) {
    const n = seqs.length;
    let idf = Math.log((rows - n + 0.5) / (n + 0.5));
    if (idf <= 0) idf = 1e-6;
    for (let i = 0; i < n; i++) {
      // FTS5 adds a column's weight once per occurrence, in the order of the columns.
      const { content, tags, length } = unpacked(counts[i]!);
      let freq = 0;
      for (let k = content; k > 0; k--) freq += 1.0;
      for (let k = tags; k > 0; k--) freq += tagWeight;
      const seq = seqs[i]!;
      // FTS5 negates the sum; subtracting each term gives the same bits (IEEE rounding is symmetric in sign).
      scores.set(seq, (scores.get(seq) ?? 0) - idf * ((freq * (K1 + 1.0)) / (freq + K1 * (1 - B + (B * length) / avgdl))));
    }
  }
  return scores;
}

/** The learnings a phrase (one word of the hints, which FTS5 may read as several tokens) occurs in. */
function phraseHits(index: LearningIndex, word: string): Occurrences {
  const tokens = ftsTokens(word);
  if (!tokens.length) return NO_HITS;
  if (tokens.length === 1) return index.occurrences(tokens[0]!);
  // Several tokens ("snake_case"): the learnings with all of them (the rarest token's, kept where the
  // others occur too), then counted where they stand in a row.
  const lists = tokens.map((t) => index.occurrences(t).seqs).sort((a, b) => a.length - b.length);
  let withAll: readonly number[] = lists[0]!;
  for (const other of lists.slice(1)) {
    if (!withAll.length) break;
    const has = new Set(other);
    withAll = withAll.filter((seq) => has.has(seq));
  }
  const hits = { seqs: [] as number[], counts: [] as number[] };
  for (const seq of withAll) {
    const l = index.get(seq)!;
    const [content, tags] = [runs(ftsTokens(l.content), tokens), runs(ftsTokens(l.tags), tokens)];
    if (!content && !tags) continue;
    hits.seqs.push(seq);
    hits.counts.push(packed(l.length, content, tags));
  }
  return hits;
}

const NO_HITS: Occurrences = { seqs: [], counts: [] };

/** How many times `phrase` occurs in `tokens` as consecutive tokens. */
function runs(tokens: string[], phrase: string[]): number {
  let n = 0;
  for (let i = 0; i + phrase.length <= tokens.length; i++) if (phrase.every((t, j) => tokens[i + j] === t)) n++;
  return n;
}

/** The words of an expression ftsExpression made (`"a" OR "b"`), in its order. */
function wordsOf(expression: string): string[] {
  const words = expression.split(" OR ").map((phrase) => /^"([^"]*)"$/.exec(phrase)?.[1]);
  if (words.some((w) => w === undefined)) throw new Error(`not an expression of quoted words: ${expression}`);
  return words as string[];
}

/** The feedback's scores with the hints' added for the same learnings (and the hints' other matches), as searchRead's sum. */
function addScores(own: Map<number, number>, scored: MatchScores): Map<number, number> {
  const sum = new Map(own);
  const pairs: Iterable<[number, number]> = typeof scored === "string" ? (JSON.parse(scored) as [number, number][]) : scored;
  for (const [seq, score] of pairs) sum.set(seq, (sum.get(seq) ?? 0) + score);
  return sum;
}

function candidateOf(l: IndexedLearning, score: number): LearningCandidateRow {
  return { id: l.id, seq: l.seq, kind: l.kind, content: l.content, confirmed: l.confirmed, createdAt: l.createdAt, tags: l.tags, userId: l.userId, author: l.author, score };
}
