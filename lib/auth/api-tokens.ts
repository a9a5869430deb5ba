import { createHash } from "node:crypto";
import { z } from "zod";
import { ApiError } from "../api/errors";
import { oneLine } from "../api/zod-fields";
import { recordAudit } from "../audit/record-audit";
import type { Db, DbOrTx } from "../db/client";
import { findUserAccess } from "../db/queries/admin-users";
import { deleteToken, hasToken, insertToken, listTokens, projectIdsBySlugs, type TokenPrincipal, type TokenRecord } from "../db/queries/tokens";
import { getUser } from "../db/queries/users";
import type { Principal } from "./principal";
import { forgetToken, tokenCheck, tokenHint, tokenOf } from "./token-memory";
import { TOKEN_SCOPES } from "../rules";

/** Every Baton token starts with this, so secret scanners and people recognise one. */
export const TOKEN_PREFIX = "baton_";

export const newTokenSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { message: "Name the token (where will it be used?)." })
    .max(100)
    .regex(...oneLine()),
  scope: z.enum(TOKEN_SCOPES).default("write"),
  projects: z.array(z.string()).max(100).default([]),
});
export type NewToken = z.input<typeof newTokenSchema>;

/** SHA-256, hex. Node's synchronous hash: this runs on every API request, and Web Crypto's async one costs more. */
export async function hashToken(secret: string): Promise<string> {
  return createHash("sha256").update(secret).digest("hex");
}

/** 32 random bytes, base64url, after `prefix`: API tokens, invitation links. */
export function generateSecret(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const base64url = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return prefix + base64url;
}

/** Longer than any secret generateSecret makes: anything longer is not worth hashing. */
const MAX_SECRET_CHARS = 100;

/** The hash a secret of generateSecret(prefix) is stored under; undefined for what cannot be one. */
export async function secretHashOf(prefix: string, secret: string): Promise<string | undefined> {
  if (!secret.startsWith(prefix) || secret.length > MAX_SECRET_CHARS) return undefined;
  return hashToken(secret);
}

/** The ids of the projects a token may be limited to: the user's own, or a 404 naming those that are not. */
export async function ownProjectIds(db: Db, params: { userId: string; slugs: string[] }): Promise<Map<string, string>> {
  const ids = await projectIdsBySlugs(db, params);
  const missing = params.slugs.filter((s) => !ids.has(s));
  if (missing.length) throw new ApiError("not_found", `No project ${missing.join(", ")} that you are a member of.`);
  return ids;
}

/**
 * Creates a token and returns its secret: the only time it exists outside the caller's hands. Never
 * for a disabled account: its tokens are refused, and enabling it must not bring one back.
 */
/**
 * Makes a token (shown once: only its hash is kept). `claim`, when given, runs first in the same
 * transaction and must say yes, or nothing is made: what the token is made for is used up only with it
 * (a `baton login` approval is spent only if its token exists).
 */
export async function createApiToken(
  db: Db,
  params: { userId: string } & NewToken,
  claim?: { run: (tx: DbOrTx) => Promise<boolean>; refused: () => ApiError },
): Promise<{ token: string; record: TokenRecord }> {
  const data = newTokenSchema.parse(params);
  const slugs = [...new Set(data.projects)];
  const ids = await ownProjectIds(db, { userId: params.userId, slugs });
  const token = generateSecret(TOKEN_PREFIX);
  const id = crypto.randomUUID();
  const record = { id, name: data.name, displayPrefix: token.slice(0, TOKEN_PREFIX.length + 6), scope: data.scope };
  const tokenHash = await hashToken(token);
  // A token is its owner's, whatever projects it is limited to: recorded as personal (project null).
  await db.transaction(async (tx) => {
    if (claim && !(await claim.run(tx))) throw claim.refused();
    // Checked in the transaction that writes the token: an account disabled meanwhile is seen here.
    if ((await findUserAccess(tx, { userId: params.userId }))?.disabled) {
      throw new ApiError("conflict", "This account is disabled: enable it first (Users in the dashboard), then make its tokens.");
    }
    await insertToken(tx, { userId: params.userId, ...record, tokenHash, projectIds: [...ids.values()] });
    await recordAudit(tx, params.userId, { action: "add", subject: "token", subjectId: id, label: data.name, projectId: null, detail: `${data.scope}, ${record.displayPrefix}…` });
  });
  return { token, record: { ...record, createdAt: new Date(), lastUsedAt: null, projects: slugs } };
}

export function listApiTokens(db: Db, params: { userId: string }): Promise<TokenRecord[]> {
  return listTokens(db, params);
}

export function hasApiToken(db: Db, params: { userId: string }): Promise<boolean> {
  return hasToken(db, params);
}

/** Deletes one of the user's tokens and answers what it was. */
export async function revokeApiToken(db: Db, params: { userId: string; tokenId: string }): Promise<TokenRecord> {
  const token = (await listTokens(db, { userId: params.userId })).find((t) => t.id === params.tokenId);
  await db.transaction(async (tx) => {
    if (!token || !(await deleteToken(tx, params))) throw new ApiError("not_found", "No such token.");
    await recordAudit(tx, params.userId, { action: "delete", subject: "token", subjectId: token.id, label: token.name, projectId: null, detail: token.displayPrefix });
  });
  forgetToken(params.tokenId);
  return token!;
}

/**
 * The token a Bearer secret names, or undefined (lib/auth/token-memory.ts remembers it a few seconds).
 * With `checkInReads` (a route that reads the database anyway, in one round trip, opts in), a token
 * remembered from before (however recently) is taken as it was, with the check that must be added to
 * the request's first batch: no lookup of its own.
 */
export async function authenticateToken(
  db: Db,
  secret: string,
  options: { checkInReads?: boolean } = {},
): Promise<{ token: TokenPrincipal | undefined; check?: ReturnType<typeof tokenCheck> }> {
  if (!secret.startsWith(TOKEN_PREFIX) || secret.length > 200) return { token: undefined };
  const tokenHash = await hashToken(secret);
  // Remembered, fresh or not, it is checked in the route's own batch: a token revoked through another
  // instance stops the context at once there too, at no round trip of its own.
  const hint = options.checkInReads ? tokenHint(tokenHash) : undefined;
  if (!hint) return { token: await tokenOf(db, tokenHash) };
  return { token: hint, check: tokenCheck(db, tokenHash, hint) };
}

/** Who a request comes from, as `baton whoami` shows it: the account, and the token when one was sent. */
export type Caller = {
  user: { name: string; email: string };
  token: { name: string; displayPrefix: string; scope: string; projects: string[]; createdAt: Date; lastUsedAt: Date | null } | null;
};

export async function describeCaller(db: Db, principal: Principal): Promise<Caller> {
  const user = await getUser(db, { userId: principal.userId });
  if (!user) throw new ApiError("unauthorized", "The account of this token no longer exists.");
  const token = principal.tokenId ? (await listTokens(db, { userId: principal.userId })).find((t) => t.id === principal.tokenId) : undefined;
  const shown = token ? { name: token.name, displayPrefix: token.displayPrefix, scope: token.scope, projects: token.projects, createdAt: token.createdAt, lastUsedAt: token.lastUsedAt } : null;
  return { user: { name: user.name, email: user.email }, token: shown };
}

/** The token that sent the request revokes itself (`baton logout`). */
export async function revokeOwnToken(db: Db, principal: Principal): Promise<{ name: string; displayPrefix: string }> {
  if (!principal.tokenId) throw new ApiError("bad_request", "This request carries no API token to revoke: send it as Authorization: Bearer <token>.");
  const { name, displayPrefix } = await revokeApiToken(db, { userId: principal.userId, tokenId: principal.tokenId });
  return { name, displayPrefix };
}
