import { and, asc, desc, eq, exists, inArray, isNull, lt, or, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { DbOrTx } from "../client";
import type { AgentName, FlagReason, LearningOrigin } from "../../rules";
import { namedFiles } from "../../learnings/named-files";
import { learnings, projects, type LearningKind } from "../schema";
import { writerName } from "./context-candidates";
import { flagColumns } from "./learning-usage";
import { listScope, ownedBy, personalOf, visibleTo, type Owner, type Visibility } from "./scope";

// Learnings one at a time and in lists; full-text search is in learning-search.ts, what a context
// reads in context-candidates.ts, counts in learning-counts.ts.

export type LearningRow = {
  id: string;
  seq: number;
  kind: LearningKind;
  content: string;
  source: string;
  confirmed: boolean;
  confirmedAt: Date | null;
  tags: string[];
  project: string | null;
  projectId: string | null;
  userId: string;
  /** The writer's name (null once that account is gone). */
  author: string | null;
  externalId: string | null;
  extra: Record<string, unknown> | null;
  createdAt: Date;
  updatedAt: Date;
  lastInjectedAt: Date | null;
  pinned: boolean;
  supersededAt: Date | null;
  supersededBy: string | null;
  /** What the newer learning says, while it exists. */
  supersededByContent: string | null;
  /** The files it names (lib/learnings/named-files.ts), and a flag while a later session's changes put it in doubt. */
  files: string[];
  flaggedAt: Date | null;
  flagReason: FlagReason | null;
  flagFile: string | null;
  flagSessionId: string | null;
  score?: number;
} & Omit<ProvenanceColumns, "acceptedBy" | "editedBy"> & {
  /** The names of who accepted it and who last changed its text (null: nobody, or the account is gone). */
  acceptedByName: string | null;
  editedByName: string | null;
};

/** Who may see what: their own personal learnings, and those of the projects given. */
export type LearningScope = Visibility;

/** The learning that superseded one, joined (on newerOf) for its text. */
export const newerLearning = alias(learnings, "newer");
export const newerOf = eq(newerLearning.id, learnings.supersededBy);

/** The columns of a LearningRow (tags still encoded), for every query that returns one. */
export const learningColumns = {
  id: learnings.id,
  seq: learnings.seq,
  kind: learnings.kind,
  content: learnings.content,
  source: learnings.source,
  confirmed: learnings.confirmed,
  confirmedAt: learnings.confirmedAt,
  tags: learnings.tags,
  project: projects.slug,
  projectId: learnings.projectId,
  userId: learnings.userId,
  author: writerName(learnings.userId),
  externalId: learnings.externalId,
  extra: learnings.extra,
  createdAt: learnings.createdAt,
  updatedAt: learnings.updatedAt,
  lastInjectedAt: learnings.lastInjectedAt,
  pinned: learnings.pinned,
  supersededAt: learnings.supersededAt,
  supersededBy: learnings.supersededBy,
  supersededByContent: newerLearning.content,
  ...flagColumns,
  origin: learnings.origin,
  proposalId: learnings.proposalId,
  agent: learnings.agent,
  model: learnings.model,
  acceptedAt: learnings.acceptedAt,
  acceptedByName: writerName(learnings.acceptedBy),
  editedAt: learnings.editedAt,
  editedByName: writerName(learnings.editedBy),
};

/** Learnings with their project's slug and what superseded them; the caller adds the scope. */
export function selectLearnings(db: DbOrTx) {
  return db.select(learningColumns).from(learnings).leftJoin(projects, eq(projects.id, learnings.projectId)).leftJoin(newerLearning, newerOf);
}

/** Tags are kept as a JSON array in a text column, which the FTS index reads as plain words. */
export function encodeTags(tags: string[]): string {
  return JSON.stringify(tags);
}

function decodeTags(stored: string): string[] {
  if (!stored) return [];
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return stored.split(/\s+/).filter(Boolean);
  }
}

export function toLearningRow<T extends { tags: string }>(row: T): Omit<T, "tags"> & { tags: string[] } {
  return { ...row, tags: decodeTags(row.tags) };
}

export type LearningFilter = LearningScope & {
  /** Only this project's learnings (already checked to be in projectIds). */
  projectId?: string;
  kind?: LearningKind;
  /** Only pinned (true) or only unpinned (false) ones. */
  pinned?: boolean;
  limit: number;
};

/** A list's scope and filters, shared by the newest-first list and the search. */
export function filterLearnings(filter: LearningFilter): SQL | undefined {
  return and(
    listScope(learnings, filter),
    filter.kind ? eq(learnings.kind, filter.kind) : undefined,
    filter.pinned !== undefined ? eq(learnings.pinned, filter.pinned) : undefined,
  );
}

/** Newest first, keyset-paginated by (created_at, seq). */
export async function listRecentLearnings(db: DbOrTx, params: LearningFilter & { before?: [number, number] }): Promise<LearningRow[]> {
  const conditions: (SQL | undefined)[] = [filterLearnings(params)];
  if (params.before) {
    const [createdAt, seq] = params.before;
    conditions.push(
      or(lt(learnings.createdAt, new Date(createdAt)), and(eq(learnings.createdAt, new Date(createdAt)), lt(learnings.seq, seq))),
    );
  }
  const rows = await selectLearnings(db)
    .where(and(...conditions))
    .orderBy(desc(learnings.createdAt), desc(learnings.seq))
    .limit(params.limit);
  return rows.map(toLearningRow);
}

export async function findLearning(db: DbOrTx, params: LearningScope & { id: string }): Promise<LearningRow | undefined> {
  const [row] = await selectLearnings(db).where(and(eq(learnings.id, params.id), visibleTo(learnings, params)));
  return row ? toLearningRow(row) : undefined;
}

/** What a new learning and a new proposal both carry: an id, an owner, what was learned and where it came from. */
export type NewLearnedItem = Owner & { id: string; kind: LearningKind; content: string; source: string };

export type NewLearningRow = NewLearnedItem & {
  confirmed: boolean;
  tags: string[];
  createdAt?: Date;
  confirmedAt?: Date | null;
  externalId?: string | null;
  extra?: Record<string, unknown> | null;
  pinned?: boolean;
  /** Set by an import of a learning exported superseded; the API supersedes through a proposal's accept. */
  supersededAt?: Date | null;
  /** The files it names; by default those its text names (a proposal's accept adds its evidence's). */
  files?: string[];
} & Partial<ProvenanceColumns>;

/** Where a learning came from (issue 27), as written when it is made: see the columns in schema/memory.ts. */
export type ProvenanceColumns = {
  origin: LearningOrigin;
  proposalId: string | null;
  agent: AgentName | null;
  model: string | null;
  acceptedBy: string | null;
  acceptedAt: Date | null;
  editedBy: string | null;
  editedAt: Date | null;
};

/** The columns a new learning is written with: its files, tags and dates filled in. */
export function learningValues(row: NewLearningRow) {
  const now = new Date();
  return {
    ...row,
    files: row.files ?? namedFiles(row.content),
    tags: encodeTags(row.tags),
    createdAt: row.createdAt ?? now,
    updatedAt: row.createdAt ?? now,
    confirmedAt: row.confirmedAt ?? (row.confirmed ? (row.createdAt ?? now) : null),
  };
}

export async function insertLearning(db: DbOrTx, row: NewLearningRow): Promise<void> {
  await db.insert(learnings).values(learningValues(row));
}

/**
 * Inserts one batch of imported learnings in one statement; those whose external id the user already
 * has are skipped. Returns how many were new. The caller keeps the batch small: one statement holds the
 * write lock from start to end, and SQLite caps the parameters one statement may bind.
 */
export async function insertLearningsIfNew(db: DbOrTx, rows: NewLearningRow[]): Promise<number> {
  if (!rows.length) return 0;
  const added = await db.insert(learnings).values(rows.map(learningValues)).onConflictDoNothing().returning({ id: learnings.id });
  return added.length;
}

/** Updates a learning within the scope the caller may write; false when there is none. */
export async function updateLearning(
  db: DbOrTx,
  params: LearningScope & {
    id: string;
    patch: {
      kind?: LearningKind;
      content?: string;
      tags?: string[];
      confirmed?: boolean;
      confirmedAt?: Date | null;
      pinned?: boolean;
      /** Both null: no longer superseded. */
      supersededAt?: null;
      supersededBy?: null;
      /** Who changed its text, when the patch changes it. */
      editedBy?: string;
      editedAt?: Date;
      /** The files it names, found again when its text changes; the flag's columns all null: no longer flagged. */
      files?: string[];
      flaggedAt?: null;
      flagReason?: null;
      flagFile?: null;
      flagSessionId?: null;
    };
  },
): Promise<boolean> {
  const { tags, ...rest } = params.patch;
  const updated = await db
    .update(learnings)
    .set({ ...rest, ...(tags ? { tags: encodeTags(tags) } : {}), updatedAt: new Date() })
    .where(and(eq(learnings.id, params.id), visibleTo(learnings, params)))
    .returning({ id: learnings.id });
  return updated.length > 0;
}

export async function deleteLearning(db: DbOrTx, params: LearningScope & { id: string }): Promise<boolean> {
  const deleted = await db
    .delete(learnings)
    .where(and(eq(learnings.id, params.id), visibleTo(learnings, params)))
    .returning({ id: learnings.id });
  return deleted.length > 0;
}

/**
 * Marks learnings of one scope superseded by a newer one that is itself live (in the same statement: two opposite
 * decisions at once, A over B and B over A, would supersede both); those already superseded or out of scope stay. Returns the ids marked.
 */
export async function supersedeLearnings(db: DbOrTx, params: Owner & { ids: string[]; by: string; at: Date }): Promise<string[]> {
  if (!params.ids.length) return [];
  const by = alias(learnings, "superseding");
  const byIsLive = exists(db.select({ id: by.id }).from(by).where(and(eq(by.id, params.by), isNull(by.supersededAt))));
  return (await db
    .update(learnings)
    .set({ supersededAt: params.at, supersededBy: params.by, updatedAt: params.at })
    .where(and(inArray(learnings.id, params.ids), ownedBy(learnings, params), isNull(learnings.supersededAt), byIsLive))
    .returning({ id: learnings.id })).map((m) => m.id);
}

/** Un-supersedes what the given learning superseded, in the scope the caller may write; returns their ids. */
export async function unsupersedeBy(db: DbOrTx, params: LearningScope & { by: string }): Promise<string[]> {
  const restored = await db
    .update(learnings)
    .set({ supersededAt: null, supersededBy: null, updatedAt: new Date() })
    .where(and(eq(learnings.supersededBy, params.by), visibleTo(learnings, params)))
    .returning({ id: learnings.id });
  return restored.map((r) => r.id);
}

/** The user's personal learnings in insertion order, so an export keeps an imported file's order. */
export async function listPersonalLearnings(db: DbOrTx, params: { userId: string }): Promise<LearningRow[]> {
  const rows = await selectLearnings(db).where(personalOf(learnings, params.userId)).orderBy(asc(learnings.seq));
  return rows.map(toLearningRow);
}
