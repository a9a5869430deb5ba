import type { Db } from "../../db/client";
import { readAll } from "../../db/queries/batch-reads";
import { changedLearningsRead, changeMarksRead, indexedLearningsRead, learningRowsRead } from "../../db/queries/learning-index-reads";
import { processWide } from "../../process/process-state";
import { LearningIndex } from "./learning-index";

/**
 * The in-memory search index of a database (lib/context/search/learning-index.ts), one per database
 * the process reads, loaded once (at start: lib/startup.ts) and brought up to date from the
 * learning_changes log (drizzle/0032_learning_changes.sql) whenever a context's reads show a newer
 * change than it applied: one statement after a write, none otherwise. Every instance sharing a
 * database keeps its own, so a learning written through one is searched by all.
 *
 * Bounded by the store: a store of more than MAX_INDEXED learnings is searched by FTS5 statements
 * instead (searchRead), as every store was before.
 */
export const MAX_INDEXED = 300_000;

/** How many changes the log keeps (its trigger says the same): an index further behind loads again. */
export const CHANGES_KEPT = 100_000;

type State = { index: LearningIndex | null; tooLarge: boolean; pending?: Promise<void> };

const states = () => processWide("learning search index", () => new WeakMap<Db, State>());

function stateOf(db: Db): State {
  const all = states();
  let state = all.get(db);
  if (!state) all.set(db, (state = { index: null, tooLarge: false }));
  return state;
}

/** The database's index, loaded first if it is not yet (null: the store is too large to hold). */
export async function searchIndex(db: Db): Promise<LearningIndex | null> {
  const state = stateOf(db);
  while (!state.index && !state.tooLarge) await work(state, () => load(db, state));
  return state.index;
}

/** The index having applied at least change `changed` (a context's reads saw it), reading what it lacks. */
export async function searchIndexAt(db: Db, index: LearningIndex, changed: number): Promise<LearningIndex> {
  const state = stateOf(db);
  // Once from the log; should that not reach it (the log cannot say), once by loading everything.
  for (let tries = 0; tries < 2 && state.index && state.index.changed < changed; tries++) {
    await work(state, () => (tries === 0 ? advance(db, state, state.index!) : load(db, state)));
  }
  return state.index ?? index;
}

/** One load or catch-up at a time per database: concurrent contexts wait for the one under way. */
async function work(state: State, run: () => Promise<void>): Promise<void> {
  if (!state.pending) state.pending = run().finally(() => (state.pending = undefined));
  await state.pending;
}

async function load(db: Db, state: State): Promise<void> {
  const { rows } = await readAll(db, { rows: learningRowsRead(db) });
  if (rows > MAX_INDEXED) {
    state.tooLarge = true;
    return;
  }
  const { marks, learnings } = await readAll(db, { marks: changeMarksRead(db), learnings: indexedLearningsRead(db) });
  const index = new LearningIndex();
  for (const l of learnings) index.put(l);
  index.changed = marks.newest;
  state.index = index;
}

async function advance(db: Db, state: State, index: LearningIndex): Promise<void> {
  const { marks, changes } = await readAll(db, { marks: changeMarksRead(db), changes: changedLearningsRead(db, index.changed) });
  // The log no longer holds every change after this index's: load everything again.
  if (marks.oldest > index.changed + 1) return load(db, state);
  const latest = new Map<number, (typeof changes)[number]["learning"]>();
  for (const c of changes) latest.set(c.changedSeq, c.learning?.id ? c.learning : null);
  for (const [seq, learning] of latest) {
    if (learning) index.put(learning);
    else index.remove(seq);
  }
  index.changed = Math.max(index.changed, changes.at(-1)?.change ?? index.changed);
}
