import { and, eq, gte, lt, sql } from "drizzle-orm";
import { SESSION_SERVED_RETENTION_DAYS } from "../../rules";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../client";
import { read } from "./batch-reads";
import { memberProjectColumns, type MemberProject } from "./projects";
import { memberOf } from "./scope";
import { projectMembers, projects, sessionProjects, sessionServed, type SessionTopic } from "../schema";

export type { SessionTopic };

const DAY_MS = 24 * 3600 * 1000;

export type SessionServedEntry = {
  userId: string;
  sessionId?: string | null;
  source: string | null;
  learningIds: string[];
  at: Date;
  /** A session-start context: its project (projectId, null: personal) is the session's from now on. */
  startsSession?: boolean;
  projectId: string | null;
  /** A session start's search words (what the session is about), for its prompts. */
  terms?: SessionTopic;
};

const keyOf = (e: { userId: string; sessionId: string }) => `${e.userId}\u0000${e.sessionId}`;

/**
 * Remembers which learnings each session was given (one row each time, its ids together), then forgets
 * sessions past the retention period. A compaction (source "compact") starts a session's record
 * afresh: the agent lost what it was given, and has only the context served after it. Part of the
 * served-context bookkeeping write (recordServedBatch), as statements of its one batch.
 */
export function sessionServedWrites(db: Db, entries: SessionServedEntry[], now: Date) {
  const compactedAt = new Map<string, { userId: string; sessionId: string; at: Date }>();
  for (const e of entries) if (e.sessionId && e.source === "compact") compactedAt.set(keyOf({ userId: e.userId, sessionId: e.sessionId }), { userId: e.userId, sessionId: e.sessionId, at: e.at });
  const writes: BatchItem<"sqlite">[] = [];
  for (const c of compactedAt.values()) {
    writes.push(db.delete(sessionServed).where(and(eq(sessionServed.userId, c.userId), eq(sessionServed.sessionId, c.sessionId), lt(sessionServed.servedAt, c.at))));
  }
  const served = entries.flatMap((e) => {
    const sessionId = e.sessionId;
    if (!sessionId || !e.learningIds.length || e.at < (compactedAt.get(keyOf({ userId: e.userId, sessionId }))?.at ?? e.at)) return [];
    return [[e.userId, sessionId, e.learningIds, e.at.getTime()]];
  });
  // One statement however many rows: the entries are one JSON parameter.
  if (served.length) {
    const columns = [sessionServed.userId, sessionServed.sessionId, sessionServed.learningIds, sessionServed.servedAt];
    writes.push(
      db.run(sql`insert into ${sessionServed} (${sql.join(columns.map((c) => sql.identifier(c.name)), sql`, `)})
        select value ->> 0, value ->> 1, value -> 2, value ->> 3 from json_each(${JSON.stringify(served)})`),
    );
  }
  const started = entries.flatMap((e) => (e.sessionId && e.startsSession ? [[e.userId, e.sessionId, e.projectId, e.at.getTime(), e.terms ?? null]] : []));
  if (started.length) {
    // The latest start of a session decides (a resume in another repository moves it); `where true` lets SQLite parse the upsert after a select.
    writes.push(
      db.run(sql`insert into ${sessionProjects} (user_id, session_id, project_id, served_at, terms)
        select value ->> 0, value ->> 1, value ->> 2, value ->> 3, value -> 4 from json_each(${JSON.stringify(started)}) where true
        on conflict (user_id, session_id) do update set project_id = excluded.project_id, served_at = excluded.served_at, terms = excluded.terms
        where excluded.served_at >= ${sessionProjects.servedAt}`),
    );
  }
  // Along the served_at indexes: finds nothing most of the time, and costs about that.
  const expired = new Date(now.getTime() - SESSION_SERVED_RETENTION_DAYS * DAY_MS);
  writes.push(db.delete(sessionServed).where(lt(sessionServed.servedAt, expired)));
  writes.push(db.delete(sessionProjects).where(lt(sessionProjects.servedAt, expired)));
  return writes;
}

/** What a session's start recorded of it: its project (null: personal) and the words it searched for. */
export type SessionStart = {
  project: MemberProject | null;
  terms: SessionTopic;
  /** The project id the table holds for it (set only when read from the table), whether or not the user is still its member. */
  storedProject?: string | null;
};

export const NO_TOPIC: SessionTopic = { words: [], related: [] };

/**
 * The project one user's session started in and its start's search words, as one read of a batch:
 * undefined when no start of it was recorded; `project` null for a personal start, or when the user
 * is no longer a member of the project it started in (nothing of theirs flows there any more).
 */
export function sessionProjectRead(db: Db, params: { userId: string; sessionId: string }) {
  const query = db
    .select({ projectId: sessionProjects.projectId, terms: sessionProjects.terms, ...memberProjectColumns, member: projectMembers.userId })
    .from(sessionProjects)
    .leftJoin(projects, eq(projects.id, sessionProjects.projectId))
    .leftJoin(projectMembers, memberOf(projects.id, params.userId))
    .where(and(eq(sessionProjects.userId, params.userId), eq(sessionProjects.sessionId, params.sessionId)));
  return read(query, (rows): SessionStart | undefined => {
    const row = rows[0];
    if (!row) return undefined;
    const terms = row.terms ?? NO_TOPIC;
    const storedProject = row.projectId;
    if (!row.projectId || !row.member || !row.id) return { project: null, terms, storedProject };
    return { project: { id: row.id, slug: row.slug!, name: row.name!, role: row.role!, injectionPaused: row.injectionPaused!, createdAt: row.createdAt! }, terms, storedProject };
  });
}

/** The ids of the learnings one user's session was given, as written so far (`since`: from then on only), as one read of a batch. */
export function servedRead(db: Db, params: { userId: string; sessionId: string; since?: Date | null }) {
  const query = db
    .select({ learningIds: sessionServed.learningIds })
    .from(sessionServed)
    .where(
      and(
        eq(sessionServed.userId, params.userId),
        eq(sessionServed.sessionId, params.sessionId),
        params.since ? gte(sessionServed.servedAt, params.since) : undefined,
      ),
    );
  return read(query, (rows) => new Set(rows.flatMap((r) => r.learningIds)));
}
