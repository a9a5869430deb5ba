import { eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db, DbOrTx } from "../client";
import { keptQuery, read } from "./batch-reads";
import { contextMarks } from "../schema";

/** A user's context marks (lib/db/schema/log.ts contextMarks); NO_MARK when none is stored yet. */
export type ContextMark = { lastSessionId: string | null; lastSessionAt: Date | null; previousSessionAt: Date | null; setupNoteAt: Date | null };

export const NO_MARK: ContextMark = { lastSessionId: null, lastSessionAt: null, previousSessionAt: null, setupNoteAt: null };

/** A session's activity: its start served, or its handoff posted (sessionId null: a handoff of no session). */
export type SessionActivity = { userId: string; sessionId: string | null; at: Date };

const markColumns = {
  lastSessionId: contextMarks.lastSessionId,
  lastSessionAt: contextMarks.lastSessionAt,
  previousSessionAt: contextMarks.previousSessionAt,
  setupNoteAt: contextMarks.setupNoteAt,
};

const markQuery = keptQuery((db: Db) => db.select(markColumns).from(contextMarks).where(eq(contextMarks.userId, sql.placeholder("userId"))));

/** One user's marks, by key, as one read of a batch (a context's first). */
export function contextMarkRead(db: Db, params: { userId: string }) {
  return read(markQuery(db, params), (rows): ContextMark => rows[0] ?? NO_MARK);
}

/**
 * Records sessions' activity in one statement, oldest first: a session other than the last one moves
 * the last one to `previous_session_at` (null ids are never the same session); the same session only
 * moves its time. An activity older than the stored one changes nothing. lib/context/gather/marks.ts
 * `advance` is the same rule, for what this instance knows before this is written.
 */
export function sessionMarksWrite(db: DbOrTx, activities: SessionActivity[]) {
  const rows = activities.toSorted((a, b) => a.at.getTime() - b.at.getTime()).map((a) => [a.userId, a.sessionId, a.at.getTime()]);
  // `where true` lets SQLite parse the upsert after a select.
  return db.run(sql`insert into ${contextMarks} (user_id, last_session_id, last_session_at)
    select value ->> 0, value ->> 1, value ->> 2 from json_each(${JSON.stringify(rows)}) where true
    on conflict (user_id) do update set
      previous_session_at = case when ${contextMarks.lastSessionId} = excluded.last_session_id then ${contextMarks.previousSessionAt} else ${contextMarks.lastSessionAt} end,
      last_session_id = excluded.last_session_id,
      last_session_at = excluded.last_session_at
    where excluded.last_session_at >= coalesce(${contextMarks.lastSessionAt}, 0)`);
}

/** Records that users were shown the setup note (the first time only counts), in one statement. */
export function setupNoteWrite(db: Db, userIds: string[], at: Date): BatchItem<"sqlite"> {
  const rows = [...new Set(userIds)].map((id) => [id, at.getTime()]);
  return db.run(sql`insert into ${contextMarks} (user_id, setup_note_at)
    select value ->> 0, value ->> 1 from json_each(${JSON.stringify(rows)}) where true
    on conflict (user_id) do update set setup_note_at = coalesce(${contextMarks.setupNoteAt}, excluded.setup_note_at)`);
}
