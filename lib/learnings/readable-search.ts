import type { Db } from "../db/client";
import { readAll } from "../db/queries/batch-reads";
import { DEFAULT_TAG_WEIGHT } from "../db/queries/context-candidates";
import { metaRead } from "../db/queries/context";
import type { LearningFilter, LearningRow } from "../db/queries/learnings";
import { learningsBySeq } from "../db/queries/learning-search";
import { rankReadable } from "../context/search/bm25-search";
import { indexAt, indexChangesRead, searchIndex } from "../context/search/index-sync";
import type { IndexedLearning } from "../context/search/learning-index";

/**
 * A page of the learnings search (GET /api/learnings?q=, MCP's list), ranked by BM25 over what the
 * reader may read (their personal learnings and `projectIds`, the projects they may read): FTS5's
 * bm25() weighs a word by every learning in the store, so its order told a reader which words others'
 * learnings hold. From the index in memory brought up to the state (one batch); null when there is no
 * index, or it is too far behind to wait for: the caller searches with FTS5 then.
 */
export async function searchReadable(db: Db, filter: LearningFilter & { words: string[]; offset: number }): Promise<LearningRow[] | null> {
  const held = searchIndex(db);
  if (!held) return null;
  const after = held.changed;
  const r = await readAll(db, { meta: metaRead(db), changes: indexChangesRead(db, held) });
  const index = indexAt(db, after, r.changes, r.meta.learningsChanged);
  if (!index) return null;
  const keep = (l: IndexedLearning) =>
    (filter.projectId ? l.projectId === filter.projectId : l.projectId === null ? l.userId === filter.userId : filter.projectIds.includes(l.projectId)) &&
    (!filter.kind || l.kind === filter.kind) &&
    (filter.pinned === undefined || l.pinned === filter.pinned);
  const page = rankReadable(index, { userId: filter.userId, readable: filter.projectIds }, filter.words, DEFAULT_TAG_WEIGHT, keep).slice(filter.offset, filter.offset + filter.limit);
  const rows = new Map((await learningsBySeq(db, page.map((p) => p.learning.seq), filter)).map((row) => [row.seq, row]));
  return page.flatMap((p) => rows.get(p.learning.seq) ?? []);
}
