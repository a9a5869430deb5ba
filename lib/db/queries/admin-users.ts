import { and, asc, desc, eq, gt, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { apiTokens, authAccounts, authSessions, cliLogins, passwordResets, projectMembers, projects, users, type ProjectRole } from "../schema";
import type { UserRole } from "../../rules";

// The server's users as an admin sees and changes them (lib/admin/users.ts). Every user is the scope
// here: only an admin's request reaches these, and the guard of that is lib/admin/users.ts's requireAdmin.

export type UserAccess = { role: UserRole; disabled: boolean };

/** What a user may do server-wide; undefined for an unknown id. */
export async function findUserAccess(db: DbOrTx, params: { userId: string }): Promise<UserAccess | undefined> {
  const [row] = await db.select({ role: users.role, disabledAt: users.disabledAt }).from(users).where(eq(users.id, params.userId));
  return row && { role: row.role, disabled: row.disabledAt !== null };
}

export type AdminUserRow = {
  id: string;
  name: string;
  email: string;
  role: UserRole;
  createdAt: Date;
  disabledAt: Date | null;
  /** The latest of: an API token used, a dashboard session signed in or refreshed, a context served. */
  lastActiveAt: Date | null;
  projects: { slug: string; name: string; role: ProjectRole }[];
};

// Each a max over an index on the user's id (api_tokens_user_idx, auth_sessions_user_idx, context_log_user_idx).
const lastTokenUse = sql<number | null>`(select max(${apiTokens.lastUsedAt}) from ${apiTokens} where ${apiTokens.userId} = ${users.id})`;
const lastSession = sql<number | null>`(select max(${authSessions.updatedAt}) from ${authSessions} where ${authSessions.userId} = ${users.id})`;
const lastServed = sql<number | null>`(select max(created_at) from context_log where context_log.user_id = ${users.id})`;
const lastActive = sql<number | null>`max(coalesce(${lastTokenUse}, 0), coalesce(${lastSession}, 0), coalesce(${lastServed}, 0))`;

/** One page of users, newest first (who just joined is on the first page), with their projects; `total` counts them all. */
export async function listUsersPage(db: DbOrTx, params: { limit: number; offset: number }): Promise<{ users: AdminUserRow[]; total: number }> {
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role, createdAt: users.createdAt, disabledAt: users.disabledAt, lastActive })
    .from(users)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(params.limit)
    .offset(params.offset);
  const [counted] = await db.select({ n: sql<number>`count(*)` }).from(users);
  const ids = rows.map((r) => r.id);
  const memberships = ids.length
    ? await db
        .select({ userId: projectMembers.userId, slug: projects.slug, name: projects.name, role: projectMembers.role })
        .from(projectMembers)
        .innerJoin(projects, eq(projects.id, projectMembers.projectId))
        .where(inArray(projectMembers.userId, ids))
        .orderBy(asc(projects.slug))
    : [];
  return {
    total: counted?.n ?? 0,
    users: rows.map(({ lastActive: at, ...row }) => ({
      ...row,
      lastActiveAt: at ? new Date(Number(at)) : null,
      projects: memberships.filter((m) => m.userId === row.id).map(({ slug, name, role }) => ({ slug, name, role })),
    })),
  };
}

/**
 * True when the row changed is not an active admin's, or another active admin remains. Evaluated inside
 * the UPDATE itself, so two admins demoting (or disabling) each other at once cannot leave none.
 */
function keepsAnAdmin(userId: string): SQL {
  return sql`(${users.role} <> 'admin' or ${users.disabledAt} is not null or (select count(*) from users as others where others.role = 'admin' and others.disabled_at is null and others.id <> ${userId}) > 0)`;
}

/** Sets a user's role; "last_admin" when that would leave no active admin, undefined when no such user. */
export async function updateUserRole(db: DbOrTx, params: { userId: string; role: UserRole }): Promise<"done" | "last_admin" | undefined> {
  const where = params.role === "admin" ? eq(users.id, params.userId) : and(eq(users.id, params.userId), keepsAnAdmin(params.userId));
  const updated = await db.update(users).set({ role: params.role }).where(where).returning({ id: users.id });
  if (updated.length) return "done";
  return (await findUserAccess(db, params)) ? "last_admin" : undefined;
}

/**
 * Disables a user (`at`) and ends everything that lets them in: their dashboard sessions, their API
 * tokens (deleted, as revoking does: re-enabling brings none back), their reset link, their `baton
 * login` codes approved and not yet collected (denied). What they wrote stays. "last_admin" when they
 * are the last active admin; undefined when no such user. Answers the ids of the tokens deleted.
 */
export async function disableUser(db: DbOrTx, params: { userId: string; at: Date }): Promise<{ tokenIds: string[] } | "last_admin" | undefined> {
  const updated = await db
    .update(users)
    .set({ disabledAt: params.at })
    .where(and(eq(users.id, params.userId), isNull(users.disabledAt), keepsAnAdmin(params.userId)))
    .returning({ id: users.id });
  if (!updated.length) {
    const access = await findUserAccess(db, params);
    if (!access) return undefined;
    if (!access.disabled) return "last_admin";
  }
  await db.delete(authSessions).where(eq(authSessions.userId, params.userId));
  const tokens = await db.delete(apiTokens).where(eq(apiTokens.userId, params.userId)).returning({ id: apiTokens.id });
  await db.delete(passwordResets).where(eq(passwordResets.userId, params.userId));
  await db.update(cliLogins).set({ status: "denied" }).where(and(eq(cliLogins.userId, params.userId), eq(cliLogins.status, "approved")));
  return { tokenIds: tokens.map((t) => t.id) };
}

/** Lets a disabled user sign in again; false when no such user. */
export async function enableUser(db: DbOrTx, params: { userId: string }): Promise<boolean> {
  const updated = await db.update(users).set({ disabledAt: null }).where(eq(users.id, params.userId)).returning({ id: users.id });
  return updated.length === 1;
}

/** Stores a user's reset link (its hash), replacing any older one: only the newest works. */
export async function replacePasswordReset(db: DbOrTx, params: { userId: string; linkHash: string; expiresAt: Date; createdBy: string }): Promise<void> {
  await db
    .insert(passwordResets)
    .values(params)
    .onConflictDoUpdate({ target: passwordResets.userId, set: { linkHash: params.linkHash, expiresAt: params.expiresAt, createdBy: params.createdBy, createdAt: new Date() } });
}

/** The user a live reset link is for (not expired, account not disabled), or undefined. */
export async function findPasswordReset(db: DbOrTx, params: { linkHash: string; now: Date }): Promise<{ userId: string; name: string; email: string } | undefined> {
  const [row] = await db
    .select({ userId: users.id, name: users.name, email: users.email })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(and(eq(passwordResets.linkHash, params.linkHash), gt(passwordResets.expiresAt, params.now), isNull(users.disabledAt)));
  return row;
}

/** Uses a reset link up (deletes it) and answers its user; undefined when another use came first or it died. */
export async function takePasswordReset(db: DbOrTx, params: { linkHash: string; now: Date }): Promise<string | undefined> {
  const [row] = await db
    .delete(passwordResets)
    .where(and(eq(passwordResets.linkHash, params.linkHash), gt(passwordResets.expiresAt, params.now)))
    .returning({ userId: passwordResets.userId });
  return row?.userId;
}

/** Sets the password of a user's credential account (better-auth's hash) and ends all their sessions. */
export async function setPasswordAndSignOut(db: DbOrTx, params: { userId: string; passwordHash: string }): Promise<void> {
  await db
    .update(authAccounts)
    .set({ password: params.passwordHash })
    .where(and(eq(authAccounts.userId, params.userId), eq(authAccounts.providerId, "credential")));
  await db.delete(authSessions).where(eq(authSessions.userId, params.userId));
}
