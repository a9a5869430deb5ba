import { ftsTokens } from "./fts-tokens";
import { packed, type LearningIndex, type Occurrences } from "./learning-index";
import type { ScopeStats } from "./scope-stats";

// A phrase's hits among what a reader may read (their personal learnings and their projects'): what
// the search's statistics count (lib/context/search/bm25-search.ts), nobody else's.

/**
 * In how many learnings a reader may read (their personal ones and those of `readable`, their
 * projects) a word (a phrase: FTS5 may read it as several tokens) occurs, and how many learnings choosing
 * words weighs those counts against (learning_counts' count): scopedWordCountsRead's answer, exact.
 */
export function documentFrequencies(index: LearningIndex, userId: string, readable: readonly string[], words: string[]): { counts: Map<string, number>; size: number } {
  const [owner, projects] = [index.keyOf(userId), readableKeys(index, readable)];
  const stats = index.readableStats(owner, projects);
  const view = readerView(index, owner, projects, stats);
  return { counts: new Map(words.map((w) => [w, view.count(w, Infinity)])), size: stats.live };
}

/**
 * A phrase's hits among what a reader may read, and how many there are (to `cap` at most): the index's
 * own when the reader may read every learning it holds (one team's server: nothing to leave out).
 */
export function readerView(index: LearningIndex, owner: number | undefined, projects: ReadonlySet<number>, stats: ScopeStats) {
  const everything = stats.rows === index.size;
  const raw = new Map<string, Occurrences>();
  const rawOf = (word: string) => raw.get(word) ?? raw.set(word, phraseHits(index, word)).get(word)!;
  const readable = new Map<string, Occurrences>();
  return {
    hits: (word: string): Occurrences => (everything ? rawOf(word) : (readable.get(word) ?? readable.set(word, readableHits(index, rawOf(word), owner, projects)).get(word)!)),
    count: (word: string, cap: number): number => {
      const { slots } = rawOf(word);
      if (everything) return Math.min(slots.length, cap);
      let n = 0;
      for (let i = 0; i < slots.length && n < cap; i++) if (index.readableIn(slots[i]!, owner, projects)) n++;
      return n;
    },
  };
}

/** The keys of the projects given that the index holds learnings of. */
export function readableKeys(index: LearningIndex, projectIds: readonly string[]): Set<number> {
  const keys = new Set<number>();
  for (const id of projectIds) {
    const key = index.keyOf(id);
    if (key !== undefined) keys.add(key);
  }
  return keys;
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

/** Of a phrase's hits, those in learnings the reader may read (ranked or not): what the statistics count. */
function readableHits(index: LearningIndex, hits: Occurrences, owner: number | undefined, projects: ReadonlySet<number>): Occurrences {
  const { slots, counts } = hits;
  const kept = { slots: [] as number[], counts: [] as number[] };
  if (owner === undefined && !projects.size) return kept;
  for (let i = 0; i < slots.length; i++)
    if (index.readableIn(slots[i]!, owner, projects)) {
      kept.slots.push(slots[i]!);
      kept.counts.push(counts[i]!);
    }
  return kept;
}

/** How many times `phrase` occurs in `tokens` as consecutive tokens. */
function runs(tokens: string[], phrase: string[]): number {
  let n = 0;
  for (let i = 0; i + phrase.length <= tokens.length; i++) if (phrase.every((t, j) => tokens[i + j] === t)) n++;
  return n;
}

