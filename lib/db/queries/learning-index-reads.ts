import { asc, gt, sql } from "drizzle-orm";
import type { Db } from "../client";
import { learningChanges, learnings } from "../schema";
import { keptQuery, read, type Results } from "./batch-reads";
import { candidateColumns } from "./context-candidates";

// What the in-memory search index (lib/context/search) is loaded and kept current from.

/** A learning as the index holds it: a context's candidate row, its owner and whether it may be ranked. */
const indexedColumns = {
  ...candidateColumns,
  projectId: learnings.projectId,
  rankable: sql<number>`${learnings.pinned} = 0 and ${learnings.supersededAt} is null`.mapWith(Boolean),
  superseded: sql<number>`${learnings.supersededAt} is not null`.mapWith(Boolean),
  pinned: learnings.pinned,
};

/** How many learnings the store holds (superseded ones too: the index holds every row FTS5 does). */
export function learningRowsRead(db: Db) {
  return read(db.select({ n: sql<number>`count(*)` }).from(learnings), (rows) => Number(rows[0]?.n ?? 0));
}

/** The newest learning_changes id and the oldest kept (0 when none). */
export function changeMarksRead(db: Db) {
  return read(
    db.select({ newest: sql<number>`coalesce(max(${learningChanges.id}), 0)`, oldest: sql<number>`coalesce(min(${learningChanges.id}), 0)` }).from(learningChanges),
    (rows) => ({ newest: Number(rows[0]?.newest ?? 0), oldest: Number(rows[0]?.oldest ?? 0) }),
  );
}

/** The learnings after seq `after`, at most `limit`, in seq order, as the index holds them. */
export function indexedLearningsRead(db: Db, after: number, limit: number) {
  return read(db.select(indexedColumns).from(learnings).where(gt(learnings.seq, after)).orderBy(asc(learnings.seq)).limit(limit));
}

const changesQuery = keptQuery((db: Db) =>
  db
    .select({ change: learningChanges.id, changedSeq: learningChanges.seq, learning: indexedColumns })
    .from(learningChanges)
    .leftJoin(learnings, sql`${learnings.seq} = ${learningChanges.seq}`)
    .where(gt(learningChanges.id, sql.placeholder("after")))
    .orderBy(asc(learningChanges.id))
    .limit(sql.placeholder("limit")),
);

/**
 * The learnings changed after change `after`, oldest change first (at most `limit`): the row as it is
 * now, or null when it is gone.
 */
export function changedLearningsRead(db: Db, after: number, limit = -1) {
  return read(
    changesQuery(db, { after, limit }),
    (rows) => rows.map((r) => ({ change: r.change, seq: r.changedSeq, learning: r.learning?.id ? r.learning : null })),
  );
}

/** What changedLearningsRead answers. */
export type LearningChanges = Results<{ c: ReturnType<typeof changedLearningsRead> }>["c"];
