import { and, eq, inArray, isNotNull, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteRaw } from "drizzle-orm/sqlite-core/query-builders/raw";
import type { Db, DbOrTx } from "../client";
import { isAgentName } from "../../rules";
import { keptQuery, read } from "./batch-reads";
import { byKind } from "./learning-counts";
import { memberProjectColumns } from "./projects";
import { PENDING_PROPOSAL_ORDER } from "./proposal-queue";
import { sessionMarksWrite, setupNoteWrite } from "./context-marks";
import { sessionServedWrites, type SessionServedEntry } from "./session-served";
import { countsOwners, memberOf, ofProject, personalAndProject, readableProjects, userInProject, visibleTo, type Owner, type Reader } from "./scope";
import {
  activeTasks,
  appMeta,
  contextLog,
  handoffs,
  learningChanges,
  learningCounts,
  learnings,
  projectMatchers,
  projectMembers,
  projects,
  proposals,
  seeds,
  sessionDocs,
  taskMemories,
  users,
} from "../schema";

// What GET /api/context reads, as batch items (lib/db/queries/batch-reads.ts): one per section's data,
// each scoped to the user or the project, all sent together.

const metaQuery = keptQuery((db) => {
  const keys = ["context_version", "embedding_dimensions"];
  const meta = db.select({ key: appMeta.key, value: appMeta.value }).from(appMeta).where(inArray(appMeta.key, keys));
  const changed = db.select({ key: sql<string>`'learning_changes'`, value: sql<string>`coalesce(max(${learningChanges.id}), 0)` }).from(learningChanges);
  return meta.unionAll(changed);
});

/**
 * The state's version (drizzle/0003_context_version.sql's triggers move it), the vector table's width,
 * and the last change to the learnings (learning_changes' newest id: what the in-memory search index must have applied).
 */
export function metaRead(db: Db) {
  return read(metaQuery(db), (rows) => {
    const value = (key: string) => rows.find((r) => r.key === key)?.value;
    return {
      version: value("context_version") ?? "0",
      vectorWidth: Number(value("embedding_dimensions") ?? 0) || null,
      learningsChanged: Number(value("learning_changes") ?? 0),
    };
  });
}

/**
 * The projects a reader may read (a member of, within a token's limit): whose learnings the statistics
 * of a search in memory count (lib/context/search/bm25-search.ts). A membership moves the state's version.
 */
export function readableProjectsRead(db: Db, reader: Reader) {
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
  if (reader.projectIds) return read(db.all<{ id: string }>(sql`select project_id as id from ${readableProjects(reader)}`), ids);
  return read(membershipsQuery(db, { userId: reader.userId }), ids);
}

/** Every project a user is a member of: the statement kept (it runs with every context's search). */
const membershipsQuery = keptQuery((db: Db) => db.select({ id: projectMembers.projectId }).from(projectMembers).where(eq(projectMembers.userId, sql.placeholder("userId"))));

/** The counter drizzle/0003_context_version.sql's triggers bump on every change a context depends on. */
export async function contextVersion(db: DbOrTx): Promise<string> {
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, "context_version"));
  return row?.value ?? "0";
}

/**
 * The projects of the user's (members only) a session could belong to, each with its matchers and
 * when the user joined it: the one configured (`slug`), or every one with a matcher and the one named
 * like the guess. lib/context/project/choose-project.ts picks.
 */
export function projectChoicesRead(db: Db, params: { userId: string; slug?: string; guess: string | null }) {
  const where = params.slug ? eq(projects.slug, params.slug) : or(isNotNull(projectMatchers.id), params.guess ? eq(projects.slug, params.guess) : undefined);
  return read(
    db
      .select({ ...memberProjectColumns, joinedAt: projectMembers.createdAt, matcherKind: projectMatchers.kind, matcherPattern: projectMatchers.pattern })
      .from(projects)
      .innerJoin(projectMembers, memberOf(projects.id, params.userId))
      .leftJoin(projectMatchers, eq(projectMatchers.projectId, projects.id))
      .where(where),
  );
}

export function seedRead(db: Db, params: { userId: string }) {
  return read(db.select().from(seeds).where(eq(seeds.userId, params.userId)), (rows) => rows[0]);
}

/**
 * The memory of the task named, else of the user's active task in the project, with who last wrote
 * it (the context names a teammate's memory as theirs: lib/context/pack/fence.ts).
 */
export function taskMemoryRead(db: Db, params: { userId: string; projectId: string; taskId?: string }) {
  const active = db.select({ taskId: activeTasks.taskId }).from(activeTasks).where(userInProject(activeTasks, params));
  return read(
    db
      .select({
        taskId: taskMemories.taskId,
        markdown: taskMemories.markdown,
        updatedAt: taskMemories.updatedAt,
        author: users.name,
        bySelf: sql<number>`coalesce(${taskMemories.updatedBy} = ${params.userId}, 0)`,
      })
      .from(taskMemories)
      .leftJoin(users, eq(users.id, taskMemories.updatedBy))
      .where(and(ofProject(taskMemories, params.projectId), eq(taskMemories.taskId, params.taskId ?? sql`(${active})`))),
    (rows) => (rows[0] ? { ...rows[0], bySelf: Boolean(rows[0].bySelf) } : undefined),
  );
}

type HandoffRow = { markdown: string; branch: string | null; author: string; agent: string | null; created_at: number; found: number };
const OWN = 2;
const ON_BRANCH = 1;

/** handoffRead's statement, one for each of its shapes: with the session's own, the branch's, both, neither. */
const handoffQueries = [false, true].map((bySession) =>
  [false, true].map((byBranch) =>
    keptQuery<SQLiteRaw<HandoffRow[]>>((db) => {
      const columns = sql`${handoffs.markdown} as markdown, ${handoffs.branch} as branch, ${handoffs.author} as author, ${handoffs.agent} as agent, ${handoffs.createdAt} as created_at`;
      const latest = (found: number, where: SQL | undefined) =>
        sql`select * from (select ${columns}, ${found} as found from ${handoffs}
          where ${and(ofProject(handoffs, sql.placeholder("projectId")), where)} order by ${handoffs.createdAt} desc, ${handoffs.id} desc limit 1)`;
      const parts = [
        // The session's own: its id and its user's (a teammate's handoff under the same id is not this session's).
        bySession ? latest(OWN, and(eq(handoffs.sessionId, sql.placeholder("sessionId")), eq(handoffs.userId, sql.placeholder("userId")))) : undefined,
        byBranch ? latest(ON_BRANCH, eq(handoffs.branch, sql.placeholder("branch"))) : undefined,
        latest(0, undefined),
      ].filter((p) => p !== undefined);
      return db.all<HandoffRow>(sql.join(parts, sql` union all `));
    }),
  ),
);

/**
 * The handoff a context shows, in one statement: after a compaction (`sessionId` given), the
 * session's own checkpoint (the handoff its PreCompact hook posted under its id) says what it was in
 * the middle of; otherwise, and when it has none, the latest handoff of the branch, else of the project.
 */
export function handoffRead(db: Db, params: { projectId: string; userId: string; branch: string | null; sessionId: string | null }) {
  const [bySession, byBranch] = [params.sessionId ? 1 : 0, params.branch ? 1 : 0];
  const query = handoffQueries[bySession]![byBranch]!(db, params);
  return read(query, (rows) => {
    const row = rows[0];
    if (!row) return undefined;
    const handoff = { markdown: row.markdown, branch: row.branch, author: row.author, agent: isAgentName(row.agent) ? row.agent : null, createdAt: new Date(Number(row.created_at)) };
    if (Number(row.found) === OWN) return { ...handoff, matchedBranch: row.branch === params.branch, checkpoint: true };
    return { ...handoff, matchedBranch: Number(row.found) === ON_BRANCH };
  });
}

export function queuedSessionsRead(db: Db, params: { projectId: string }) {
  return read(
    db
      .select({ n: sql<number>`count(*)` })
      .from(sessionDocs)
      .where(and(ofProject(sessionDocs, params.projectId), eq(sessionDocs.status, "todo"))),
    (rows) => rows[0]?.n ?? 0,
  );
}

/** Pending proposals a context lists (the user's personal ones and the project's), with how many there are in all. */
export function pendingProposalsRead(db: Db, params: Owner & { limit: number }) {
  const columns = { id: proposals.id, kind: proposals.kind, content: proposals.content, confidence: proposals.confidence };
  return read(
    db
      .select({ ...columns, total: sql<number>`count(*) over ()` })
      .from(proposals)
      .where(and(eq(proposals.status, "pending"), visibleTo(proposals, personalAndProject(params))))
      .orderBy(...PENDING_PROPOSAL_ORDER)
      .limit(params.limit),
    (rows) => ({ items: rows.map((p) => ({ id: p.id, kind: p.kind, content: p.content, confidence: p.confidence })), total: rows[0]?.total ?? 0 }),
  );
}

/** What a context draws on (the user's personal learnings and the project's), counted by kind at write time. */
export function learningCountsRead(db: Db, params: Owner) {
  return read(db.select({ kind: learningCounts.kind, n: learningCounts.n }).from(learningCounts).where(inArray(learningCounts.owner, countsOwners(params))), byKind);
}

/**
 * Writes a batch of served-context bookkeeping in one round trip: the log rows in one insert, one
 * last-injected update per user and project however many contexts were served to them, what each
 * host session (sessionId) was given, for the prompt stage, and the users' context marks.
 */
export async function recordServedBatch(
  db: Db,
  entries: (SessionServedEntry & { tokenId: string | null; budget: number; tokenEstimate: number; learningsShown: number; served?: false; setupNote?: true })[],
): Promise<void> {
  if (!entries.length) return;
  // A session start is the user's latest session (a paused project's too: they worked in it); `setupNote`: the context showed the setup note.
  const starts = entries.flatMap((e) => (e.sessionId && e.startsSession ? [{ userId: e.userId, sessionId: e.sessionId, at: e.at }] : []));
  const setupShown = entries.filter((e) => e.setupNote);
  const marks = [...(starts.length ? [sessionMarksWrite(db, starts)] : []), ...(setupShown.length ? [setupNoteWrite(db, setupShown.map((e) => e.userId), setupShown[0]!.at)] : [])];
  const groups = new Map<string, ServedGroup>();
  // `served: false`: a start whose project paused injection, recorded only as the session's project.
  const served = entries.filter((e) => e.served !== false);
  for (const e of served) {
    const key = `${e.userId}\u0000${e.projectId ?? ""}`;
    const group = groups.get(key) ?? { userId: e.userId, projectId: e.projectId, ids: new Set<string>(), at: e.at };
    for (const id of e.learningIds) group.ids.add(id);
    if (e.at > group.at) group.at = e.at;
    groups.set(key, group);
  }
  const [first, ...rest] = [...(served.length ? [logInsert(db, served)] : []), ...sessionServedWrites(db, entries, new Date()), ...injectedUpdates(db, [...groups.values()]), ...marks];
  // Written behind, as bookkeeping (lib/process/write-behind.ts). An embedded replica need not sync
  // before its next read: the log is never read into a context, and
  // the marks are, but the instance that served them remembers them meanwhile (lib/context/gather/marks.ts).
  await db.batch([first!, ...rest]);
}

export type ServedGroup = { userId: string; projectId: string | null; ids: Set<string>; at: Date };

/** The log rows of a batch in one statement: its rows are one JSON parameter, however many. */
function logInsert(db: Db, entries: Parameters<typeof recordServedBatch>[1]) {
  const columns = [contextLog.userId, contextLog.projectId, contextLog.tokenId, contextLog.source, contextLog.budget, contextLog.tokenEstimate, contextLog.learningsShown, contextLog.createdAt];
  const rows = entries.map((e) => [e.userId, e.projectId, e.tokenId, e.source, e.budget, e.tokenEstimate, e.learningsShown, e.at.getTime()]);
  return db.run(sql`insert into ${contextLog} (${sql.join(columns.map((c) => sql.identifier(c.name)), sql`, `)})
    select ${sql.join(columns.map((_, i) => sql.raw(`value ->> ${i}`)), sql`, `)} from json_each(${JSON.stringify(rows)})`);
}

const DAY_MS = 86_400_000;

/**
 * The learnings served, marked with when (exported for the test of its query plan). Only once a UTC day:
 * the time is read as a day (the learning's card says "last sent to an agent 2026-11-27", the tidy queue
 * counts days), and a team's sessions show the same learnings many times a day, each a row and an
 * index entry rewritten in a commit on the event loop.
 */
export function injectedUpdates(db: Db, groups: ServedGroup[]) {
  return groups.map((g) => {
    const dayStart = Math.floor(g.at.getTime() / DAY_MS) * DAY_MS;
    // updated_at stays: being injected is bookkeeping, not an edit (drizzle would otherwise bump it).
    return (
      db
        .update(learnings)
        .set({ lastInjectedAt: g.at, updatedAt: sql`${learnings.updatedAt}` })
        // The ids first, each looked up by its unique index (CROSS JOIN keeps that order), the scope checked
        // on those rows: with `id in (json_each) and scope` the planner walked the scope's indexes instead,
        // every learning of the project, 260 ms a flush at 100k (the context's p99 there: BENCHMARKS.md).
        .where(
          sql`${learnings.seq} in (select ${learnings.seq} from json_each(${JSON.stringify([...g.ids])}) as served cross join ${learnings} on ${learnings.id} = served.value
            where ${visibleTo(learnings, personalAndProject(g))} and (${learnings.lastInjectedAt} is null or ${learnings.lastInjectedAt} < ${dayStart}))`,
        )
    );
  });
}
