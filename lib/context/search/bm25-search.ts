import { FTS_WINDOW, type LearningCandidateRow, type MatchScores, type SearchParams, type Searched } from "../../db/queries/context-candidates";
import { ftsExpression } from "../../learnings/fts-query";
import { selectTerms } from "../hints/hint-query";
import { processWide } from "../../process/process-state";
import { readableKeys, readerView } from "./reader-view";
import { unpacked, type IndexedLearning, type LearningIndex, type Occurrences } from "./learning-index";
import type { ScopeStats } from "./scope-stats";

/**
 * searchRead's answer (lib/db/queries/context-candidates.ts) from the learnings held in memory, by
 * statistics of what the reader may read alone (their personal learnings and those of the projects
 * they are a member of, `readable`: pinned and superseded ones too): each phrase's IDF over those,
 * their count and mean length (BM25, as FTS5's bm25() computes it: k1 = 1.2, b = 0.75, a column's
 * weight added once per occurrence, the document's length in both columns), the words chosen by their
 * counts there against how many those are (`ScopeStats.live`, learning_counts' count), and the window
 * of the best FTS_WINDOW matches among the learnings the context may rank (the owner's personal ones
 * and the project's). What anyone else wrote moves no score, no choice and no byte of a context. The
 * scores are those FTS5 gives on a store holding only what the reader may read
 * (test/integration/memory-search.test.ts compares the two).
 */
export function searchInMemory(index: LearningIndex, params: SearchParams, readable: readonly string[]): Searched {
  const [owner, project] = [index.keyOf(params.userId), params.projectId == null ? undefined : index.keyOf(params.projectId)];
  // What the reader may read, and the context's project (theirs: a context is only ever for one).
  const projects = readableKeys(index, params.projectId == null ? readable : [...readable, params.projectId]);
  const stats = index.readableStats(owner, projects);
  const view = readerView(index, owner, projects, stats);
  let phrases: string[];
  const counted = new Map<string, number>();
  if ("match" in params) phrases = wordsOf(params.match);
  else {
    const words = params.terms.map(([term]) => term);
    // Past the cutoff a word is left out whatever its count: counted to one past it, no further.
    const { minCutoff, maxShare } = params.selection;
    const cap = Math.floor(Math.max(minCutoff, stats.live * maxShare)) + 1;
    for (const word of words) counted.set(word, view.count(word, cap));
    phrases = selectTerms(words, counted, stats.live, params.selection).slice(0, params.maxTerms ?? Infinity);
  }
  const chosen = ftsExpression(phrases);
  if (chosen === null) return { candidates: [], counted, chosen, scores: NO_SCORES, size: stats.live, via: "memory" };

  const sum = new Sum(index);
  try {
    bm25(sum, index, stats, phrases.map(view.hits), { tagWeight: params.tagWeight, owner, project });
    if (params.scored !== undefined) sum.addScored(params.scored);
    const window = sum.window(FTS_WINDOW);
    const { slots, scores } = window;
    const threshold = limitScore(scores, params.limit);
    const top: { l: IndexedLearning; score: number }[] = [];
    if (params.limit > 0) for (let i = 0; i < slots.length; i++) if (threshold === undefined || scores[i]! <= threshold) top.push({ l: index.at(slots[i]!)!, score: scores[i]! });
    top.sort((a, b) => a.score - b.score || b.l.createdMs - a.l.createdMs || b.l.seq - a.l.seq);
    const candidates = top.slice(0, params.limit).map(({ l, score }) => candidateOf(l, score));
    return { candidates, counted, chosen, scores: params.scores ? window : NO_SCORES, size: stats.live, via: "memory" };
  } finally {
    sum.clear();
  }
}

const NO_SCORES: MatchScores = [];

/**
 * The arrays every search sums its scores in, by slot, and marks the slots it touched: searches run one
 * at a time (no await), and each leaves them cleared.
 */
const scratch = processWide("search scratch", () => ({ scores: new Float64Array(1024), touched: new Uint8Array(1024) }));

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
    if (scored instanceof WindowScores && scored.readable(this.index)) {
      // The hints' window of this index as it still is: its slots name the same learnings.
      for (let i = 0; i < scored.slots.length; i++) this.add(scored.slots[i]!, scored.scores[i]!);
      for (const [seq, score] of scored.elsewhere) this.addElsewhere(seq, score);
      return;
    }
    const pairs: Iterable<readonly [number, number]> = typeof scored === "string" ? (JSON.parse(scored) as [number, number][]) : scored;
    for (const [seq, score] of pairs) {
      const slot = this.index.slot(seq);
      if (slot === undefined) this.addElsewhere(seq, score);
      else this.add(slot, score);
    }
  }

  private addElsewhere(seq: number, score: number): void {
    this.elsewhere.set(seq, (this.elsewhere.get(seq) ?? 0) + score);
  }

  /**
   * The best `window` matches (lowest score, then highest seq, as FTS5 orders them), or all when no more:
   * those the index holds by slot, in no particular order, and the others by seq.
   */
  window(window: number): WindowScores {
    const n = this.touched.length;
    if (n + this.elsewhere.size <= window) {
      const [seqs, scores] = [new Float64Array(n), new Float64Array(n)];
      for (let i = 0; i < n; i++) {
        const slot = this.touched[i]!;
        seqs[i] = this.index.seqAt(slot);
        scores[i] = this.acc[slot]!;
      }
      return new WindowScores(this.index, this.touched, seqs, scores, [...this.elsewhere]);
    }
    const all: { seq: number; score: number; slot: number }[] = this.touched.map((slot) => ({ seq: this.index.seqAt(slot), score: this.acc[slot]!, slot }));
    for (const [seq, score] of this.elsewhere) all.push({ seq, score, slot: -1 });
    const best = all.sort((a, b) => a.score - b.score || b.seq - a.seq).slice(0, window);
    const held = best.filter((m) => m.slot >= 0);
    return new WindowScores(
      this.index,
      held.map((m) => m.slot),
      Float64Array.from(held, (m) => m.seq),
      Float64Array.from(held, (m) => m.score),
      best.filter((m) => m.slot < 0).map((m) => [m.seq, m.score] as const),
    );
  }

  clear(): void {
    for (const slot of this.touched) this.marks[slot] = 0;
  }
}

/**
 * A search's window of matches with their scores (MatchScores: iterated, [seq, score] pairs): those the
 * index holds by slot too, so the feedback's search adds them to its own without looking a seq up; others
 * (the scores a statement gave, of learnings the index does not hold) by seq. Its slots are read as
 * such only by a search on the same index with no slot emptied or given since (`readable`): a change may
 * give a slot to another learning.
 */
export class WindowScores implements Iterable<readonly [number, number]> {
  private readonly layout: number;

  constructor(
    private readonly index: LearningIndex,
    readonly slots: readonly number[],
    private readonly seqs: Float64Array,
    readonly scores: Float64Array,
    readonly elsewhere: readonly (readonly [number, number])[],
  ) {
    this.layout = index.layout;
  }

  /** Whether its slots name in `index` the learnings they named when it was made. */
  readable(index: LearningIndex): boolean {
    return index === this.index && index.layout === this.layout;
  }

  *[Symbol.iterator](): Iterator<readonly [number, number]> {
    for (let i = 0; i < this.seqs.length; i++) yield [this.seqs[i]!, this.scores[i]!];
    yield* this.elsewhere;
  }
}

/**
 * The score the best `limit` matches score at most (lowest first): the limit-th lowest (undefined: no
 * more than `limit`, all of them are kept). Every one of the best `limit` scores at most that, and only
 * ties at it are more, so sorting those instead of all gives the same first `limit`; most matches are
 * cut by one numeric sort of the scores.
 */
function limitScore(scores: Float64Array, limit: number): number | undefined {
  if (scores.length <= limit) return undefined;
  const sorted = Float64Array.from(scores).sort();
  return sorted[limit - 1]!;
}

export const K1 = 1.2;
export const B = 0.75;

/**
 * Each matching learning's BM25 score (negative, best lowest, as FTS5 answers it) into `sum`, for those
 * the scope may rank; `phrases` are the scope's hits, its statistics `stats`. Summed phrase by phrase in
 * the expression's order, as FTS5 sums them, so the scores are FTS5's to the bit on a store of that scope.
 */
function bm25(sum: Sum, index: LearningIndex, stats: ScopeStats, phrases: Occurrences[], scope: { tagWeight: number; owner: number | undefined; project: number | undefined }): void {
  const { tagWeight, owner, project } = scope;
  const avgdl = stats.tokens / stats.rows;
  for (const { slots, counts } of phrases) {
    const idf = idfOf(stats.rows, slots.length);
    for (let i = 0; i < slots.length; i++) if (index.inScope(slots[i]!, owner, project)) sum.add(slots[i]!, term(idf, counts[i]!, tagWeight, avgdl));
  }
}

/** FTS5's IDF of a phrase in `n` of `rows` learnings (never below a millionth). */
function idfOf(rows: number, n: number): number {
  const idf = Math.log((rows - n + 0.5) / (n + 0.5));
  return idf <= 0 ? 1e-6 : idf;
}

/**
 * One phrase's BM25 term for one learning (`counts` packed), negated: FTS5 negates the sum, and adding
 * each term negated gives the same bits (IEEE rounding is symmetric in sign; the first term is taken as
 * it is, so a zero term stays -0 as FTS5's -1.0 × 0).
 */
function term(idf: number, counts: number, tagWeight: number, avgdl: number): number {
  // FTS5 adds a column's weight once per occurrence, in the order of the columns.
  const { content, tags, length } = unpacked(counts);
  let freq = 0;
  for (let k = content; k > 0; k--) freq += 1.0;
  for (let k = tags; k > 0; k--) freq += tagWeight;
  return -(idf * ((freq * (K1 + 1.0)) / (freq + K1 * (1 - B + (B * length) / avgdl))));
}

/**
 * Every learning a reader may read that `keep` keeps and that any of `words` is in, with its BM25 score
 * over what the reader may read (FTS5's bm25() on a store of only those), best first, then newest: the
 * learnings search (lib/learnings/readable-search.ts), pinned and superseded ones too.
 */
export function rankReadable(
  index: LearningIndex,
  reader: { userId: string; readable: readonly string[] },
  words: string[],
  tagWeight: number,
  keep: (l: IndexedLearning) => boolean,
): { learning: IndexedLearning; score: number }[] {
  const [owner, projects] = [index.keyOf(reader.userId), readableKeys(index, reader.readable)];
  const stats = index.readableStats(owner, projects);
  const view = readerView(index, owner, projects, stats);
  const avgdl = stats.tokens / stats.rows;
  const sum = new Sum(index);
  try {
    for (const word of words) {
      const { slots, counts } = view.hits(word);
      const idf = idfOf(stats.rows, slots.length);
      for (let i = 0; i < slots.length; i++) if (keep(index.at(slots[i]!)!)) sum.add(slots[i]!, term(idf, counts[i]!, tagWeight, avgdl));
    }
    const { slots, scores } = sum.window(Infinity);
    const ranked = slots.map((slot, i) => ({ learning: index.at(slot)!, score: scores[i]! }));
    return ranked.sort((a, b) => a.score - b.score || b.learning.createdMs - a.learning.createdMs || b.learning.seq - a.learning.seq);
  } finally {
    sum.clear();
  }
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
