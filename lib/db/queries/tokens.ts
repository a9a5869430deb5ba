import { and, desc, eq, inArray, isNull, lt, or } from "drizzle-orm";
import type { Db, DbOrTx } from "../client";
import { apiTokenProjects, apiTokens, projectMembers, projects, users, type TokenScope } from "../schema";
import { memberOf } from "./scope";

export type TokenRecord = {
  id: string;
  name: string;
  displayPrefix: string;
  scope: TokenScope;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** Slugs the token is limited to; empty: every project of its user. */
  projects: string[];
};

export async function insertToken(
  db: DbOrTx,
  params: { userId: string; id: string; name: string; tokenHash: string; displayPrefix: string; scope: TokenScope; projectIds: string[] },
): Promise<void> {
  await db.insert(apiTokens).values({
    id: params.id,
    userId: params.userId,
    name: params.name,
    tokenHash: params.tokenHash,
    displayPrefix: params.displayPrefix,
    scope: params.scope,
  });
  if (params.projectIds.length) {
    await db.insert(apiTokenProjects).values(params.projectIds.map((projectId) => ({ tokenId: params.id, projectId })));
  }
}

export async function listTokens(db: DbOrTx, params: { userId: string }): Promise<TokenRecord[]> {
  const rows = await db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      displayPrefix: apiTokens.displayPrefix,
      scope: apiTokens.scope,
      createdAt: apiTokens.createdAt,
      lastUsedAt: apiTokens.lastUsedAt,
    })
    .from(apiTokens)
    .where(eq(apiTokens.userId, params.userId))
    .orderBy(desc(apiTokens.createdAt));
  if (!rows.length) return [];
  const limits = await db
    .select({ tokenId: apiTokenProjects.tokenId, slug: projects.slug })
    .from(apiTokenProjects)
    .innerJoin(projects, eq(projects.id, apiTokenProjects.projectId))
    .innerJoin(apiTokens, eq(apiTokens.id, apiTokenProjects.tokenId))
    .where(eq(apiTokens.userId, params.userId));
  return rows.map((row) => ({ ...row, projects: limits.filter((l) => l.tokenId === row.id).map((l) => l.slug) }));
}

/** Whether the user has any API token: one indexed row at most (the home page asks on every view). */
export async function hasToken(db: DbOrTx, params: { userId: string }): Promise<boolean> {
  const rows = await db.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.userId, params.userId)).limit(1);
  return rows.length > 0;
}

/** Deletes one of the user's tokens; false when it is not theirs or does not exist. */
export async function deleteToken(db: DbOrTx, params: { userId: string; tokenId: string }): Promise<boolean> {
  const deleted = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, params.tokenId), eq(apiTokens.userId, params.userId)))
    .returning({ id: apiTokens.id });
  return deleted.length > 0;
}

export type TokenPrincipal = { id: string; userId: string; scope: TokenScope; projectIds: string[] | null; lastUsedAt: Date | null };

/**
 * The token and the projects it is limited to, in one query (it runs on every API request). A disabled
 * user's token finds nothing, as a revoked one does (disabling deletes them too: this holds for one
 * made while the account was being disabled).
 */
export function tokenByHashQuery(db: Db, tokenHash: string) {
  return db
    .select({
      id: apiTokens.id,
      userId: apiTokens.userId,
      scope: apiTokens.scope,
      lastUsedAt: apiTokens.lastUsedAt,
      projectId: apiTokenProjects.projectId,
    })
    .from(apiTokens)
    .innerJoin(users, and(eq(users.id, apiTokens.userId), isNull(users.disabledAt)))
    .leftJoin(apiTokenProjects, eq(apiTokenProjects.tokenId, apiTokens.id))
    .where(eq(apiTokens.tokenHash, tokenHash));
}

/** A token's rows (one per project it is limited to) as the principal they make. */
export function tokenOfRows(rows: Awaited<ReturnType<typeof tokenByHashQuery>>): TokenPrincipal | undefined {
  const first = rows[0];
  if (!first) return undefined;
  const projectIds = rows.map((r) => r.projectId).filter((p): p is string => p !== null);
  return { id: first.id, userId: first.userId, scope: first.scope, lastUsedAt: first.lastUsedAt, projectIds: projectIds.length ? projectIds : null };
}

export async function findTokenByHash(db: Db, params: { tokenHash: string }): Promise<TokenPrincipal | undefined> {
  return tokenOfRows(await tokenByHashQuery(db, params.tokenHash));
}

/** Records tokens' use (each at its time), a token at most once per `minAgeMs`, in one batch. */
export async function touchTokens(db: Db, params: { touches: [tokenId: string, at: Date][]; minAgeMs: number }): Promise<void> {
  const updates = params.touches.map(([tokenId, at]) =>
    db
      .update(apiTokens)
      .set({ lastUsedAt: at })
      .where(and(eq(apiTokens.id, tokenId), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, new Date(at.getTime() - params.minAgeMs))))),
  );
  const [first, ...rest] = updates;
  if (first) await db.batch([first, ...rest]);
}

export async function projectIdsBySlugs(db: DbOrTx, params: { userId: string; slugs: string[] }): Promise<Map<string, string>> {
  if (!params.slugs.length) return new Map();
  const rows = await db
    .select({ id: projects.id, slug: projects.slug })
    .from(projects)
    .innerJoin(projectMembers, memberOf(projects.id, params.userId))
    .where(inArray(projects.slug, params.slugs));
  return new Map(rows.map((r) => [r.slug, r.id]));
}
