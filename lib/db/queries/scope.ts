import { and, eq, inArray, isNull, or, sql, type Column, type Placeholder, type SQL } from "drizzle-orm";
import { projectMembers } from "../schema";

// Who owns a row, written once per kind of owner and put in every query's WHERE (or join) from here:
//   - rows a user keeps alone or shares through a project (learnings, proposals): personalOf,
//     visibleTo, ownedBy, listScope;
//   - rows of a project alone (handoffs, session documents, task memories, matchers): ofProject;
//   - rows one user keeps in one project (the active task): userInProject;
//   - rows reached through a project the user is a member of: memberOf, a join condition.

/** A table whose rows are personal (no project: the user's alone) or a project's. */
type UserOrProjectRows = { userId: Column; projectId: Column };
type ProjectRows = { projectId: Column };

/** Who may see what: the user's personal rows, and the rows of the projects given. */
export type Visibility = { userId: string; projectIds: string[] };
/** Where a row lives: one project, or (null) the user's personal rows. */
export type Owner = { userId: string; projectId: string | null };
/**
 * Whoever reads, as far as what they may read goes: their personal rows and those of every project they
 * are a member of, of `projectIds` only when given (a token limited to some projects).
 */
export type Reader = { userId: string; projectIds: string[] | null };

export function personalOf(table: UserOrProjectRows, userId: string): SQL {
  return and(isNull(table.projectId), eq(table.userId, userId))!;
}

export function visibleTo(table: UserOrProjectRows, scope: Visibility): SQL {
  const personal = personalOf(table, scope.userId);
  return scope.projectIds.length ? or(personal, inArray(table.projectId, scope.projectIds))! : personal;
}

/** One scope only, a project's or the personal one: where a new row would go, so where its twin lives. */
export function ownedBy(table: UserOrProjectRows, owner: Owner): SQL {
  return owner.projectId ? ofProject(table, owner.projectId) : personalOf(table, owner.userId);
}

/** What a context draws on: the user's personal rows and one project's (never another's). */
export function personalAndProject(owner: Owner): Visibility {
  return { userId: owner.userId, projectIds: owner.projectId ? [owner.projectId] : [] };
}

/** What a list shows: the one project asked for (the caller has checked it is readable), else everything visible. */
export function listScope(table: UserOrProjectRows, filter: Visibility & { projectId?: string }): SQL {
  return filter.projectId ? ofProject(table, filter.projectId) : visibleTo(table, filter);
}

export function ofProject(table: ProjectRows, projectId: string | Placeholder): SQL {
  return eq(table.projectId, projectId);
}

export function userInProject(table: UserOrProjectRows, owner: { userId: string; projectId: string }): SQL {
  return and(eq(table.userId, owner.userId), ofProject(table, owner.projectId))!;
}

/** The projects a reader may read, as a subquery: those they are a member of (within a token's limit). */
export function readableProjects(reader: Reader): SQL {
  const limit = reader.projectIds ? inArray(projectMembers.projectId, reader.projectIds) : undefined;
  return sql`(select ${projectMembers.projectId} from ${projectMembers} where ${and(eq(projectMembers.userId, reader.userId), limit)})`;
}

/** The rows a reader may read: their personal ones and those of the projects they are a member of. */
export function readableBy(table: UserOrProjectRows, reader: Reader): SQL {
  return or(personalOf(table, reader.userId), sql`${table.projectId} in ${readableProjects(reader)}`)!;
}

/** The keys of learning_counts that count what a reader may read (readableBy). */
export function readableCounts(column: Column, reader: Reader): SQL {
  return or(eq(column, `user:${reader.userId}`), sql`${column} in (select 'project:' || project_id from ${readableProjects(reader)})`)!;
}

/**
 * The keys of learning_counts a context sums (drizzle/…_learning_counts.sql's triggers write the same):
 * the user's personal learnings and the project's.
 */
export function countsOwners(owner: Owner): string[] {
  return [`user:${owner.userId}`, ...(owner.projectId ? [`project:${owner.projectId}`] : [])];
}

/** Joins project_members so that only rows of projects the user is a member of come through. */
export function memberOf(projectId: Column, userId: string): SQL {
  return and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId))!;
}
