import type { Db } from "../../db/client";
import { readAll } from "../../db/queries/batch-reads";
import { changedLearningsRead, changeMarksRead, indexedLearningsRead, learningRowsRead, type LearningChanges } from "../../db/queries/learning-index-reads";
import { processWide } from "../../process/process-state";
import { searchRead, type SearchParams, type Searched } from "../../db/queries/context-candidates";
import { searchInMemory } from "./bm25-search";
import { LearningIndex } from "./learning-index";

/**
 * The in-memory search index of a database (lib/context/search/learning-index.ts), one per database
 * the process reads, loaded once (at start: lib/startup.ts) and brought up to date from the
 * learning_changes log (drizzle/0032_learning_changes.sql): each context's batch reads the changes after
 * the index's last (indexChangesRead: none, nearly always) with the newest change, and applies them
 * (indexAt), so a write costs no round trip. Every instance sharing a database keeps its own, so a
 * learning written through one is searched by all.
 *
 * Bounded by the store: a store of more than MAX_INDEXED learnings is searched by FTS5 statements
 * instead (searchRead), as every store was before. Measured (bench/search-index.ts): 12 MB of heap and
 * 0.6 s to load for 10,000 learnings, 100 MB and 5 s for 100,000.
 */
export const MAX_INDEXED = 200_000;

/** How many changes the log keeps (its trigger says the same): an index further behind loads again. */
export const CHANGES_KEPT = 100_000;

type State = { index: LearningIndex | null; tooLarge: boolean; pending?: { done: Promise<void>; background: boolean }; retryAt: number };

/** Rows one statement of a load or a catch-up reads at most: each well within DATABASE_TIMEOUT_MS, on a libSQL server too. */
const PAGE = 2_000;

/** How long a load or catch-up that failed (the database out of reach) waits before it is tried again. */
const RETRY_MS = 5_000;

/**
 * How far behind (in changes) a context waits for its index to catch up: one statement of at most
 * this many rows. Further behind (a bulk import, another instance's long batch), the index catches up
 * in the background and contexts search with FTS5 statements meanwhile, rather than wait seconds.
 */
export const CATCH_UP_INLINE = 2_000;

const states = () => processWide("learning search index", () => new WeakMap<Db, State>());

function stateOf(db: Db): State {
  const all = states();
  let state = all.get(db);
  if (!state) all.set(db, (state = { index: null, tooLarge: false, retryAt: 0 }));
  return state;
}

/** The database's index, loaded now if it is not (at start, and in tests); null: the store is too large to hold. */
export async function loadSearchIndex(db: Db): Promise<LearningIndex | null> {
  const state = stateOf(db);
  while (!state.index && !state.tooLarge) await work(state, () => load(db, state), false);
  return state.index;
}

/**
 * The database's index as it is, for a context: never waits. Not loaded yet (its load at start failed),
 * it is loaded in the background and the context searches with statements meanwhile.
 */
export function searchIndex(db: Db): LearningIndex | null {
  const state = stateOf(db);
  if (!state.index && !state.tooLarge) background(db, state, () => load(db, state));
  return state.index;
}

/**
 * The read a context adds to its batch so that its index needs no round trip of its own: the changes
 * after those the index applied (none, nearly always), at most CATCH_UP_INLINE of them.
 */
export function indexChangesRead(db: Db, index: LearningIndex) {
  return changedLearningsRead(db, index.changed, CATCH_UP_INLINE + 1);
}

/**
 * The index current with change `newest` (what a context's batch read), once it applied `changes` (the
 * batch's indexChangesRead, read after `after`); null when they do not bring it there (too many, or the
 * log no longer holds them all): then it catches up in the background, and the context searches with a
 * statement (searchRead) meanwhile. Changes another context applied already are skipped: each is
 * applied once, in the log's order, with the learning as some batch read it at or after that change.
 */
export function indexAt(db: Db, after: number, changes: LearningChanges, newest: number): LearningIndex | null {
  const state = stateOf(db);
  const index = state.index;
  if (!index) return null;
  if (index.changed >= newest) return index;
  const complete = index.changed >= after && changes.length <= CATCH_UP_INLINE && (changes[0]?.change ?? newest + 1) <= index.changed + 1 && (changes.at(-1)?.change ?? 0) >= newest;
  if (complete) {
    apply(index, changes);
    return index;
  }
  background(db, state, () => advance(db, state));
  return null;
}

/** The index having applied at least change `changed`, waiting for what it lacks to be read (tests); null: too large. */
export async function searchIndexAt(db: Db, changed: number): Promise<LearningIndex | null> {
  const state = stateOf(db);
  await loadSearchIndex(db);
  for (let before = -1; state.index && state.index.changed < changed && state.index.changed !== before; ) {
    before = state.index.changed;
    await work(state, () => advance(db, state), false);
  }
  return state.index;
}

/**
 * A context's search at the state its batch read (`at`, with the changes read for the index, and the
 * projects the reader may read): in memory when that brings the index to it, else as a statement of its
 * own (searchRead).
 */
export async function searchAt(
  db: Db,
  params: SearchParams,
  at: { learningsChanged: number },
  changes: { after: number; read: LearningChanges } | undefined,
  readable: readonly string[],
): Promise<Searched> {
  const index = changes && indexAt(db, changes.after, changes.read, at.learningsChanged);
  return index ? searchInMemory(index, params, readable) : (await readAll(db, { found: searchRead(db, params) })).found;
}

/** One load or catch-up at a time per database: contexts wait for one under way, unless it runs in the background. */
function work(state: State, run: () => Promise<void>, background: boolean): Promise<void> {
  if (!state.pending) {
    const done = run().finally(() => (state.pending = undefined));
    state.pending = { done, background };
  }
  return state.pending.done;
}

/** A catch-up or load in the background, unless one is under way or the last failed moments ago. */
function background(db: Db, state: State, run: () => Promise<void>): void {
  if (state.pending || Date.now() < state.retryAt) return;
  void work(state, run, true).catch(() => (state.retryAt = Date.now() + RETRY_MS));
}

/**
 * Every learning, a page of PAGE at a time. The newest change is read first: what is written while
 * the pages are read comes after it, and the next context's batch (or a catch-up) applies it.
 */
async function load(db: Db, state: State): Promise<void> {
  const { rows, marks } = await readAll(db, { rows: learningRowsRead(db), marks: changeMarksRead(db) });
  if (rows > MAX_INDEXED) return tooLarge(state);
  const index = new LearningIndex();
  for (let after = 0; ; ) {
    const { page } = await readAll(db, { page: indexedLearningsRead(db, after, PAGE) });
    for (const l of page) index.put(l);
    if (page.length < PAGE) break;
    after = page.at(-1)!.seq;
  }
  index.changed = marks.newest;
  state.index = index;
}

/** The changes after the index's applied, a page at a time; all learnings loaded again when the log no longer holds them all. */
async function advance(db: Db, state: State): Promise<void> {
  for (let index = state.index; index === state.index && index; ) {
    const { marks, changes } = await readAll(db, { marks: changeMarksRead(db), changes: changedLearningsRead(db, index.changed, PAGE) });
    if (marks.newest > index.changed && marks.oldest > index.changed + 1) return load(db, state);
    apply(index, changes);
    if (index.size > MAX_INDEXED) return tooLarge(state);
    if (changes.length < PAGE) return;
  }
}

/** Past MAX_INDEXED learnings the index is dropped for good (until the server restarts) and contexts search with statements. */
function tooLarge(state: State): void {
  state.index = null;
  state.tooLarge = true;
}

/** Changes read from the log, those after the index's last applied, in order. */
function apply(index: LearningIndex, changes: LearningChanges): void {
  const latest = new Map<number, LearningChanges[number]["learning"]>();
  let last = index.changed;
  for (const c of changes) {
    if (c.change <= index.changed) continue;
    latest.set(c.seq, c.learning);
    last = c.change;
  }
  for (const [seq, learning] of latest) {
    if (learning) index.put(learning);
    else index.remove(seq);
  }
  index.changed = last;
}
