import { and, asc, eq, gt, inArray, or } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { DbOrTx } from "../client";
import { projectMembers, projects, sessionDocs, users, type SessionStatus } from "../schema";
import { memberOf, ofProject } from "./scope";

/** What a session document's front matter sets, stored alongside its markdown. */
type SessionDocFields = {
  id: string;
  markdown: string;
  priority: number;
  tags: string[];
  branch: string | null;
  specs: string[];
  files: string[];
  workingDirectory: string | null;
  createdAt: Date;
};

/** A session document as the domain sees it: its project by slug, its claimer by name and email. */
export type SessionDocView = SessionDocFields & {
  project: string;
  status: SessionStatus;
  /** Internal: who may complete or release it. Never sent to clients. */
  claimedByUserId: string | null;
  claimedBy: { name: string; email: string } | null;
  claimedAt: Date | null;
  completedAt: Date | null;
  /** Who queued it, by name (null once that account is gone): a teammate's text is quoted as theirs. */
  author: string | null;
};

const creators = alias(users, "creators");

const viewColumns = {
  id: sessionDocs.id,
  project: projects.slug,
  status: sessionDocs.status,
  priority: sessionDocs.priority,
  tags: sessionDocs.tags,
  branch: sessionDocs.branch,
  specs: sessionDocs.specs,
  files: sessionDocs.files,
  workingDirectory: sessionDocs.workingDirectory,
  markdown: sessionDocs.markdown,
  claimedByUserId: sessionDocs.claimedBy,
  claimerName: users.name,
  claimerEmail: users.email,
  claimedAt: sessionDocs.claimedAt,
  completedAt: sessionDocs.completedAt,
  createdAt: sessionDocs.createdAt,
  author: creators.name,
};

type ViewRow = Omit<SessionDocView, "claimedBy"> & { claimerName: string | null; claimerEmail: string | null };

function toView({ claimerName, claimerEmail, ...row }: ViewRow): SessionDocView {
  return { ...row, claimedBy: claimerName !== null && claimerEmail !== null ? { name: claimerName, email: claimerEmail } : null };
}

function selectViews(db: DbOrTx) {
  return db
    .select(viewColumns)
    .from(sessionDocs)
    .innerJoin(projects, eq(projects.id, sessionDocs.projectId))
    .leftJoin(users, eq(users.id, sessionDocs.claimedBy))
    .leftJoin(creators, eq(creators.id, sessionDocs.createdBy));
}

export type NewSessionDoc = SessionDocFields & { projectId: string; createdBy: string };

/**
 * Queues a document; false when its project already has one with this id (the primary key, project
 * and id, decides, so a race cannot store both). Another project's ids never get in the way.
 */
export async function insertSessionDoc(db: DbOrTx, params: NewSessionDoc): Promise<boolean> {
  const inserted = await db
    .insert(sessionDocs)
    .values({ ...params, status: "todo" })
    .onConflictDoNothing({ target: [sessionDocs.projectId, sessionDocs.id] })
    .returning({ id: sessionDocs.id });
  return inserted.length === 1;
}

export async function findSessionDoc(db: DbOrTx, params: { projectId: string; id: string }): Promise<SessionDocView | undefined> {
  const [row] = await selectViews(db).where(and(ofProject(sessionDocs, params.projectId), eq(sessionDocs.id, params.id)));
  return row && toView(row);
}

/**
 * The documents with this id in the projects the user is a member of (ids are unique per project, so
 * there may be several), narrowed to `onlyIds` for a project-limited token, in slug order. Never a row
 * of another project.
 */
export async function findSessionDocsForUser(db: DbOrTx, params: { userId: string; id: string; onlyIds?: string[] | null }): Promise<SessionDocView[]> {
  const conditions = [eq(sessionDocs.id, params.id)];
  if (params.onlyIds) conditions.push(inArray(sessionDocs.projectId, params.onlyIds));
  const rows = await selectViews(db)
    .innerJoin(projectMembers, memberOf(sessionDocs.projectId, params.userId))
    .where(and(...conditions))
    .orderBy(asc(projects.slug));
  return rows.map(toView);
}

export type SessionQueueKey = { priority: number; createdAt: Date; id: string };

/**
 * A page of a project's documents in queue order (priority, then age), optionally only those one user
 * has claimed; `after` is the previous page's last key.
 */
export async function listSessionDocs(
  db: DbOrTx,
  params: { projectId: string; status?: SessionStatus; claimedBy?: string; limit: number; after?: SessionQueueKey },
): Promise<SessionDocView[]> {
  const conditions = [ofProject(sessionDocs, params.projectId)];
  if (params.status) conditions.push(eq(sessionDocs.status, params.status));
  if (params.claimedBy) conditions.push(eq(sessionDocs.claimedBy, params.claimedBy));
  if (params.after) {
    const { priority, createdAt, id } = params.after;
    conditions.push(
      or(
        gt(sessionDocs.priority, priority),
        and(
          eq(sessionDocs.priority, priority),
          or(gt(sessionDocs.createdAt, createdAt), and(eq(sessionDocs.createdAt, createdAt), gt(sessionDocs.id, id))),
        ),
      )!,
    );
  }
  const rows = await selectViews(db)
    .where(and(...conditions))
    .orderBy(asc(sessionDocs.priority), asc(sessionDocs.createdAt), asc(sessionDocs.id))
    .limit(params.limit);
  return rows.map(toView);
}

const claimSet = (userId: string, now: Date) => ({ status: "doing" as const, claimedBy: userId, claimedAt: now, updatedAt: now });

/**
 * Claims one document if it is still queued. The status test is in the UPDATE itself, so of any
 * number of concurrent claims exactly one changes the row.
 */
export async function claimSessionDoc(db: DbOrTx, params: { projectId: string; id: string; userId: string; now: Date }): Promise<boolean> {
  const claimed = await db
    .update(sessionDocs)
    .set(claimSet(params.userId, params.now))
    .where(and(ofProject(sessionDocs, params.projectId), eq(sessionDocs.id, params.id), eq(sessionDocs.status, "todo")))
    .returning({ id: sessionDocs.id });
  return claimed.length === 1;
}

/**
 * Claims the first queued document of a project in one statement: SQLite takes the write lock before
 * it evaluates the subquery, so the row chosen cannot be taken by someone else in between. The outer
 * status test keeps it safe even where the two were not serialised. Returns the id claimed.
 */
export async function claimNextSessionDoc(db: DbOrTx, params: { projectId: string; userId: string; now: Date }): Promise<string | undefined> {
  const next = db
    .select({ id: sessionDocs.id })
    .from(sessionDocs)
    .where(and(ofProject(sessionDocs, params.projectId), eq(sessionDocs.status, "todo")))
    .orderBy(asc(sessionDocs.priority), asc(sessionDocs.createdAt), asc(sessionDocs.id))
    .limit(1);
  const [row] = await db
    .update(sessionDocs)
    .set(claimSet(params.userId, params.now))
    .where(and(ofProject(sessionDocs, params.projectId), eq(sessionDocs.status, "todo"), inArray(sessionDocs.id, next)))
    .returning({ id: sessionDocs.id });
  return row?.id;
}

/**
 * Moves a claimed document on: to `done` (complete) or back to `todo` (release). Only while it is
 * `doing`, and, unless `byAnyone` (a project owner), only by its claimer. False when nothing changed.
 */
export async function finishSessionDoc(
  db: DbOrTx,
  params: { projectId: string; id: string; userId: string; byAnyone: boolean; to: "done" | "todo"; now: Date },
): Promise<boolean> {
  const conditions = [ofProject(sessionDocs, params.projectId), eq(sessionDocs.id, params.id), eq(sessionDocs.status, "doing")];
  if (!params.byAnyone) conditions.push(eq(sessionDocs.claimedBy, params.userId));
  const set =
    params.to === "done"
      ? { status: "done" as const, completedAt: params.now, updatedAt: params.now }
      : { status: "todo" as const, claimedBy: null, claimedAt: null, updatedAt: params.now };
  const changed = await db
    .update(sessionDocs)
    .set(set)
    .where(and(...conditions))
    .returning({ id: sessionDocs.id });
  return changed.length === 1;
}
