import type { LearningCandidateRow } from "../../db/queries/context-candidates";
import { ftsTokens } from "./fts-tokens";
import { ScopeCounts, type ScopeStats } from "./scope-stats";

/**
 * Every learning of the store (everyone's), held in memory with its postings and counted by scope (a
 * user's personal learnings, a project's), so a context ranks its candidates without a full-text
 * statement, by statistics of what its reader may read alone (lib/context/search/bm25-search.ts)
 * (BENCHMARKS.md, issue 25: the two FTS5 statements were half of a context's time). The tokens are
 * FTS5's own (`porter unicode61`, lib/context/search/fts-tokens.ts), so the ranking is the one
 * learnings_fts gives (lib/context/search/bm25-search.ts; test/integration/memory-search.test.ts compares).
 * Kept current by lib/context/search/index-sync.ts from the learning_changes log.
 */
export type IndexedLearning = LearningCandidateRow & {
  projectId: string | null;
  /** Neither pinned nor superseded: what a context may rank (rankable() in the candidate queries). */
  rankable: boolean;
  /** Superseded: never ranked, nor counted among the learnings a scope holds (learning_counts). `pinned`: as the row says. */
  superseded: boolean;
  pinned: boolean;
  /** Its tokens in both columns: BM25's document length. */
  length: number;
  createdMs: number;
};

/**
 * The learnings a token occurs in, with how often in each column and the learning's length (packed), each entry
 * with the generation of the learning it was made for: an entry whose learning is gone or was put again
 * since is dead, left in place when the learning changes (`stale` counts them) and dropped the next time
 * the token is read, so a change costs its own tokens, not the length of every list they are in.
 */
type Postings = Occurrences & { slots: number[]; counts: number[]; gens: number[]; stale: number };

/**
 * The learnings a token (or a phrase: lib/context/search/bm25-search.ts) occurs in, each once, as arrays
 * read by position: its slot (`at`), and its count in each column with the learning's length (BM25's
 * document length, carried here so scoring reads no learning), packed in one number (`packed`, `unpacked`).
 */
export type Occurrences = { readonly slots: readonly number[]; readonly counts: readonly number[] };

const SHIFT = 65_536;

/** The longest length a posting holds: with two 16-bit counts, 2^53 in all (a double's exact integers). */
export const MAX_PACKED_LENGTH = 2 ** 21 - 1;

/**
 * A posting's counts in one number: (length × 2^16 + content) × 2^16 + tags. One array of numbers rather
 * than two: at 100,000 learnings the second cost 15 MB of heap. Within the API's limits a learning is far
 * inside the bounds (MAX_CONTENT_CHARS, MAX_TAGS × MAX_TAG_CHARS: a token is a character at least); a row
 * written around them is held at the bounds, its score then FTS5's only nearly.
 */
export function packed(length: number, content: number, tags: number): number {
  return (Math.min(length, MAX_PACKED_LENGTH) * SHIFT + Math.min(content, SHIFT - 1)) * SHIFT + Math.min(tags, SHIFT - 1);
}

/** A posting's counts unpacked: its count in the content, in the tags, and the learning's length. */
export function unpacked(counts: number): { content: number; tags: number; length: number } {
  const tags = counts % SHIFT;
  const rest = (counts - tags) / SHIFT;
  const content = rest % SHIFT;
  return { content, tags, length: (rest - content) / SHIFT };
}

type Doc = IndexedLearning & { gen: number };

/**
 * Each learning has a slot, a small number kept while it is held (reused once it is gone), so a search
 * scores into an array by slot and reads a learning by position, not through a map by seq.
 */
export class LearningIndex {
  private readonly slots: (Doc | undefined)[] = [];
  /**
   * By slot, what a search reads of every match, apart from the learnings' objects (which lie all over
   * the heap): its seq, and its scope as small numbers (`keyOf`): the project's (0: personal; -1: not
   * rankable, never in a scope) and the owner's.
   */
  private readonly seqs: number[] = [];
  private readonly projects: number[] = [];
  private readonly owners: number[] = [];
  /** By slot, the scope's project key whether rankable or not (0: personal): what the scope's statistics count. */
  private readonly scopes: number[] = [];
  private readonly counts = new ScopeCounts();
  private readonly keys = new Map<string, number>();
  private readonly slotOf = new Map<number, number>();
  private readonly free: number[] = [];
  private readonly postings = new Map<string, Postings>();
  private tokens = 0;
  private gen = 0;
  private moves = 0;
  /** The newest learning_changes id applied. */
  changed = 0;

  get size(): number {
    return this.slotOf.size;
  }

  /** One more than the highest slot: what an array by slot must hold. */
  get capacity(): number {
    return this.slots.length;
  }

  /**
   * Moves whenever a slot is emptied or given to a learning: a slot read at one layout names the same
   * learning at that layout only.
   */
  get layout(): number {
    return this.moves;
  }

  /** Tokens in all learnings, both columns (FTS5's total size). */
  get totalTokens(): number {
    return this.tokens;
  }

  get(seq: number): IndexedLearning | undefined {
    const slot = this.slotOf.get(seq);
    return slot === undefined ? undefined : this.slots[slot];
  }

  /** The learning in a slot (undefined: none now). */
  at(slot: number): IndexedLearning | undefined {
    return this.slots[slot];
  }

  /** The seq of the learning in a slot that holds one. */
  seqAt(slot: number): number {
    return this.seqs[slot]!;
  }

  /** A user's or a project's id as the scope by slot holds it (undefined: no learning held has it). */
  keyOf(id: string): number | undefined {
    return this.keys.get(id);
  }

  /**
   * Whether the learning in a slot is one a context of this user (`owner`, keyOf) and project (`project`,
   * keyOf; undefined: none) may rank, as the candidate queries' scope and rankable() say: neither pinned
   * nor superseded, and the owner's personal learning or the project's.
   */
  inScope(slot: number, owner: number | undefined, project: number | undefined): boolean {
    const p = this.projects[slot]!;
    return (p === 0 && this.owners[slot] === owner) || (p > 0 && p === project);
  }

  /**
   * Whether the learning in a slot is one a reader may read, ranked or not (pinned, superseded): the
   * reader's personal one (`owner`, keyOf) or one of a project of theirs (`projects`, keys): what the
   * statistics of what they may read count.
   */
  readableIn(slot: number, owner: number | undefined, projects: ReadonlySet<number>): boolean {
    const p = this.scopes[slot]!;
    return p === 0 ? this.owners[slot] === owner : projects.has(p);
  }

  /**
   * What the learnings a reader may read add up to (their personal ones, `owner`, and their projects',
   * `projects`; keys): BM25's document count and total length, and how many of them are not superseded
   * (learning_counts' count, what choosing words weighs their frequencies against).
   */
  readableStats(owner: number | undefined, projects: ReadonlySet<number>): ScopeStats {
    return this.counts.of(owner, projects);
  }

  /** The learnings held, newest (highest seq) first, at most `limit` of them. */
  newest(limit: number): IndexedLearning[] {
    const held = this.slots.filter((doc): doc is Doc => doc !== undefined);
    return held.sort((a, b) => b.seq - a.seq).slice(0, limit);
  }

  /** A held learning's slot. */
  slot(seq: number): number | undefined {
    return this.slotOf.get(seq);
  }

  /** The learnings `token` occurs in (empty: none). */
  occurrences(token: string): Occurrences {
    const p = this.postings.get(token);
    if (!p) return NO_OCCURRENCES;
    if (p.stale) this.compact(token, p);
    return p;
  }

  /** A learning added, or put in place of the one it was (its words read again only when its text changed). */
  put(learning: Omit<IndexedLearning, "length" | "createdMs">): void {
    const at = this.slotOf.get(learning.seq);
    const old = at === undefined ? undefined : this.slots[at];
    if (at !== undefined && old && old.content === learning.content && old.tags === learning.tags) {
      this.counts.count(this.scopes[at]!, this.owners[at]!, old, -1);
      this.slots[at] = shaped(learning, old.length, old.gen);
      this.scope(at, learning);
      this.counts.count(this.scopes[at]!, this.owners[at]!, this.slots[at]!, 1);
      return;
    }
    this.remove(learning.seq);
    const gen = ++this.gen;
    const slot = this.free.pop() ?? this.slots.length;
    const content = countTokens(learning.content);
    const tags = countTokens(learning.tags);
    let length = 0;
    for (const n of content.values()) length += n;
    for (const n of tags.values()) length += n;
    for (const [token, n] of content) this.post(token, slot, packed(length, n, tags.get(token) ?? 0), gen);
    for (const [token, n] of tags) if (!content.has(token)) this.post(token, slot, packed(length, 0, n), gen);
    this.tokens += length;
    this.slots[slot] = shaped(learning, length, gen);
    this.slotOf.set(learning.seq, slot);
    this.seqs[slot] = learning.seq;
    this.scope(slot, learning);
    this.counts.count(this.scopes[slot]!, this.owners[slot]!, this.slots[slot]!, 1);
    this.moves++;
  }

  /** A learning gone (deleted): its entries die and its length leaves the statistics. */
  remove(seq: number): void {
    const slot = this.slotOf.get(seq);
    const doc = slot === undefined ? undefined : this.slots[slot];
    if (slot === undefined || !doc) return;
    for (const token of new Set([...ftsTokens(doc.content), ...ftsTokens(doc.tags)])) {
      const p = this.postings.get(token);
      if (p) p.stale++;
    }
    this.tokens -= doc.length;
    this.counts.count(this.scopes[slot]!, this.owners[slot]!, doc, -1);
    this.slots[slot] = undefined;
    this.slotOf.delete(seq);
    this.free.push(slot);
    this.moves++;
  }

  private scope(slot: number, l: Pick<IndexedLearning, "rankable" | "projectId" | "userId">): void {
    this.scopes[slot] = l.projectId === null ? 0 : this.key(l.projectId);
    this.projects[slot] = l.rankable ? this.scopes[slot] : -1;
    this.owners[slot] = this.key(l.userId);
  }


  /** An id's key (from 1), given the first time it is seen: kept while the index is (one per user and project whose learnings it held). */
  private key(id: string): number {
    let key = this.keys.get(id);
    if (key === undefined) this.keys.set(id, (key = this.keys.size + 1));
    return key;
  }

  private post(token: string, slot: number, counts: number, gen: number): void {
    const p = this.postings.get(token);
    if (p) {
      p.slots.push(slot);
      p.counts.push(counts);
      p.gens.push(gen);
    } else this.postings.set(token, { slots: [slot], counts: [counts], gens: [gen], stale: 0 });
  }

  /** The token's dead entries dropped: a slot now empty, or holding a learning put since (generations are never reused). */
  private compact(token: string, p: Postings): void {
    let kept = 0;
    for (let i = 0; i < p.slots.length; i++) {
      if (this.slots[p.slots[i]!]?.gen !== p.gens[i]) continue;
      p.slots[kept] = p.slots[i]!;
      p.counts[kept] = p.counts[i]!;
      p.gens[kept] = p.gens[i]!;
      kept++;
    }
    p.slots.length = p.counts.length = p.gens.length = kept;
    p.stale = 0;
    if (!kept) this.postings.delete(token);
  }
}

/**
 * One literal of one shape for every learning (not a spread of the row a driver made): the search reads
 * these fields for hundreds of learnings a context, and V8 reads one shape's fields fastest.
 */
function shaped(l: Omit<IndexedLearning, "length" | "createdMs">, length: number, gen: number): Doc {
  return {
    id: l.id,
    seq: l.seq,
    kind: l.kind,
    content: l.content,
    confirmed: l.confirmed,
    createdAt: l.createdAt,
    tags: l.tags,
    userId: l.userId,
    author: l.author,
    projectId: l.projectId,
    rankable: l.rankable,
    superseded: l.superseded,
    pinned: l.pinned,
    length,
    createdMs: l.createdAt.getTime(),
    gen,
  };
}

const NO_OCCURRENCES: Occurrences = { slots: [], counts: [] };

function countTokens(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of ftsTokens(text)) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}
