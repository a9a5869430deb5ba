import { FTS_WINDOW, type LearningCandidateRow, type MatchScores, type SearchParams, type Searched } from "../../db/queries/context-candidates";
import { ftsExpression } from "../../learnings/fts-query";
import { selectTerms } from "../hints/hint-query";
import { processWide } from "../../process/process-state";
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
    for (const word of words) counted.set(word, hitsOf(word).slots.length);
    phrases = selectTerms(words, counted, storeSize, params.selection).slice(0, params.maxTerms ?? Infinity);
  }
  const chosen = ftsExpression(phrases);
  if (chosen === null) return { candidates: [], counted, chosen, scores: new Map(), via: "memory" };

  const sum = new Sum(index);
  try {
    bm25(sum, index, phrases.map(hitsOf), params.tagWeight);
    if (params.scored !== undefined) sum.addScored(params.scored);
    // FTS5 hands on its best FTS_WINDOW matches of everyone's learnings; the scope is applied to those.
    const best = sum.best(FTS_WINDOW);
    const found: { l: IndexedLearning; score: number }[] = [];
    for (const { l, score } of best) if (l && inScope(l, params)) found.push({ l, score });
    const top = atMost(found, params.limit);
    top.sort((a, b) => a.score - b.score || b.l.createdMs - a.l.createdMs || b.l.seq - a.l.seq);
    const candidates = top.slice(0, params.limit).map(({ l, score }) => candidateOf(l, score));
    return { candidates, counted, chosen, scores: params.scores ? new Map(best.map((m) => [m.seq, m.score])) : new Map(), via: "memory" };
  } finally {
    sum.clear();
  }
}

/** What the candidate queries' scope and rankable() let a context rank: the owner's personal learnings and the project's, neither pinned nor superseded. */
function inScope(l: IndexedLearning, { userId, projectId }: { userId: string; projectId?: string | null }): boolean {
  return l.rankable && ((l.projectId === null && l.userId === userId) || (projectId != null && l.projectId === projectId));
}

/**
 * The arrays every search sums its scores in, by slot, and marks the slots it touched: searches run one
 * at a time (no await), and each leaves them cleared.
 */
const scratch = processWide("search scratch", () => ({ scores: new Float64Array(1024), touched: new Uint8Array(1024) }));

/** A match: its seq, its score, and the learning when the index holds it (a feedback's scores from a statement may name one it does not). */
type Match = { seq: number; score: number; l: IndexedLearning | undefined };

/** Scores summed by slot in the scratch arrays, with the slots touched in the order first touched. */
class Sum {
  private readonly acc: Float64Array;
  private readonly marks: Uint8Array;
  private readonly touched: number[] = [];
  /** Scores added for seqs the index does not hold (they take places in FTS5's window all the same). */
  private readonly elsewhere = new Map<number, number>();

  constructor(private readonly index: LearningIndex) {
    if (scratch.scores.length < index.capacity) {
      const size = Math.max(index.capacity, scratch.scores.length * 2);
      [scratch.scores, scratch.touched] = [new Float64Array(size), new Uint8Array(size)];
    }
    [this.acc, this.marks] = [scratch.scores, scratch.touched];
  }

  /** A score added to a slot's; the first one taken as it is (a sum from 0 would turn FTS5's -0 into +0). */
  add(slot: number, score: number): void {
    if (this.marks[slot]) this.acc[slot]! += score;
    else {
      this.marks[slot] = 1;
      this.acc[slot] = score;
      this.touched.push(slot);
    }
  }

  /** The feedback's search: the hints' scores added to its own for the same learnings, as searchRead sums them. */
  addScored(scored: MatchScores): void {
    const pairs: Iterable<[number, number]> = typeof scored === "string" ? (JSON.parse(scored) as [number, number][]) : scored;
    for (const [seq, score] of pairs) {
      const slot = this.index.slot(seq);
      if (slot === undefined) this.elsewhere.set(seq, (this.elsewhere.get(seq) ?? 0) + score);
      else this.add(slot, score);
    }
  }

  /** The best `window` matches (lowest score, then highest seq, as FTS5 orders them), or all when no more. */
  best(window: number): Match[] {
    const all: Match[] = this.touched.map((slot) => {
      const l = this.index.at(slot)!;
      return { seq: l.seq, score: this.acc[slot]!, l };
    });
    for (const [seq, score] of this.elsewhere) all.push({ seq, score, l: undefined });
    return all.length <= window ? all : all.sort((a, b) => a.score - b.score || b.seq - a.seq).slice(0, window);
  }

  clear(): void {
    for (const slot of this.touched) this.marks[slot] = 0;
  }
}

/**
 * The matches that can be among the best `limit` (lowest score first): those scoring at most the
 * limit-th lowest score. Every one of the best `limit` is among them, and only ties at that score are
 * more, so sorting these instead of all gives the same first `limit`; most matches are cut by one
 * numeric sort of their scores.
 */
function atMost<T extends { score: number }>(found: T[], limit: number): T[] {
  if (limit <= 0) return [];
  if (found.length <= limit) return found;
  const scores = new Float64Array(found.length);
  for (let i = 0; i < found.length; i++) scores[i] = found[i]!.score;
  scores.sort();
  const threshold = scores[limit - 1]!;
  return found.filter((f) => f.score <= threshold);
}

/** In how many learnings a word (a phrase: FTS5 may read it as several tokens) occurs: wordCountsRead's count, exact. */
export function documentFrequencies(index: LearningIndex, words: string[]): Map<string, number> {
  return new Map(words.map((w) => [w, phraseHits(index, w).slots.length]));
}

const K1 = 1.2;
const B = 0.75;

/**
 * Each matching learning's BM25 score (negative, best lowest, as FTS5 answers it), into `sum`. Summed
 * phrase by phrase in the expression's order, as FTS5 sums them, so the scores are FTS5's to the bit.
 */
function bm25(sum: Sum, index: LearningIndex, phrases: Occurrences[], tagWeight: number): void {
  const rows = index.size;
  const avgdl = index.totalTokens / rows;
  for (const { slots, counts } of phrases) {
    const n = slots.length;
    let idf = Math.log((rows - n + 0.5) / (n + 0.5));
    if (idf <= 0) idf = 1e-6;
    for (let i = 0; i < n; i++) {
      // FTS5 adds a column's weight once per occurrence, in the order of the columns.
      const { content, tags, length } = unpacked(counts[i]!);
      let freq = 0;
      for (let k = content; k > 0; k--) freq += 1.0;
      for (let k = tags; k > 0; k--) freq += tagWeight;
      // FTS5 negates the sum; adding each term negated gives the same bits (IEEE rounding is symmetric in
      // sign; the first term is taken as it is, so a zero term stays -0 as FTS5's -1.0 × 0).
      sum.add(slots[i]!, -(idf * ((freq * (K1 + 1.0)) / (freq + K1 * (1 - B + (B * length) / avgdl)))));
    }
  }
}

/** The learnings a phrase (one word of the hints, which FTS5 may read as several tokens) occurs in. */
function phraseHits(index: LearningIndex, word: string): Occurrences {
  const tokens = ftsTokens(word);
  if (!tokens.length) return NO_HITS;
  if (tokens.length === 1) return index.occurrences(tokens[0]!);
  // Several tokens ("snake_case"): the learnings with all of them (the rarest token's, kept where the
  // others occur too), then counted where they stand in a row.
  const lists = tokens.map((t) => index.occurrences(t).slots).sort((a, b) => a.length - b.length);
  let withAll: readonly number[] = lists[0]!;
  for (const other of lists.slice(1)) {
    if (!withAll.length) break;
    const has = new Set(other);
    withAll = withAll.filter((slot) => has.has(slot));
  }
  const hits = { slots: [] as number[], counts: [] as number[] };
  for (const slot of withAll) {
    const l = index.at(slot)!;
    const [content, tags] = [runs(ftsTokens(l.content), tokens), runs(ftsTokens(l.tags), tokens)];
    if (!content && !tags) continue;
    hits.slots.push(slot);
    hits.counts.push(packed(l.length, content, tags));
  }
  return hits;
}

const NO_HITS: Occurrences = { slots: [], counts: [] };

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

function candidateOf(l: IndexedLearning, score: number): LearningCandidateRow {
  return { id: l.id, seq: l.seq, kind: l.kind, content: l.content, confirmed: l.confirmed, createdAt: l.createdAt, tags: l.tags, userId: l.userId, author: l.author, score };
}
