import { createHash } from "node:crypto";
import { z } from "zod";
import { ApiError } from "../api/errors";
import { recordAudit } from "../audit/record-audit";
import type { Db } from "../db/client";
import { deleteToken, insertToken, listTokens, projectIdsBySlugs, type TokenPrincipal, type TokenRecord } from "../db/queries/tokens";
import { forgetToken, tokenCheck, tokenHint, tokenOf, tokenRemembered } from "./token-memory";
import { TOKEN_SCOPES } from "../rules";

/** Every Baton token starts with this, so secret scanners and people recognise one. */
export const TOKEN_PREFIX = "baton_";

export const newTokenSchema = z.object({
  name: z.string().trim().min(1, { message: "Name the token (where will it be used?)." }).max(100),
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

/** Creates a token and returns its secret: the only time it exists outside the caller's hands. */
export async function createApiToken(db: Db, params: { userId: string } & NewToken): Promise<{ token: string; record: TokenRecord }> {
  const data = newTokenSchema.parse(params);
  const slugs = [...new Set(data.projects)];
  const ids = await projectIdsBySlugs(db, { userId: params.userId, slugs });
  const missing = slugs.filter((s) => !ids.has(s));
  if (missing.length) throw new ApiError("not_found", `No project ${missing.join(", ")} that you are a member of.`);
  const token = generateSecret(TOKEN_PREFIX);
  const id = crypto.randomUUID();
  const record = { id, name: data.name, displayPrefix: token.slice(0, TOKEN_PREFIX.length + 6), scope: data.scope };
  const tokenHash = await hashToken(token);
  // A token is its owner's, whatever projects it is limited to: recorded as personal (project null).
  await db.transaction(async (tx) => {
    await insertToken(tx, { userId: params.userId, ...record, tokenHash, projectIds: [...ids.values()] });
    await recordAudit(tx, params.userId, { action: "add", subject: "token", subjectId: id, label: data.name, projectId: null, detail: `${data.scope}, ${record.displayPrefix}…` });
  });
  return { token, record: { ...record, createdAt: new Date(), lastUsedAt: null, projects: slugs } };
}

export function listApiTokens(db: Db, params: { userId: string }): Promise<TokenRecord[]> {
  return listTokens(db, params);
}

export async function revokeApiToken(db: Db, params: { userId: string; tokenId: string }): Promise<void> {
  const token = (await listTokens(db, { userId: params.userId })).find((t) => t.id === params.tokenId);
  await db.transaction(async (tx) => {
    if (!token || !(await deleteToken(tx, params))) throw new ApiError("not_found", "No such token.");
    await recordAudit(tx, params.userId, { action: "delete", subject: "token", subjectId: token.id, label: token.name, projectId: null, detail: token.displayPrefix });
  });
  forgetToken(params.tokenId);
}

/**
 * The token a Bearer secret names, or undefined (lib/auth/token-memory.ts remembers it a few seconds).
 * With `checkInReads` (a route that reads the database anyway, in one round trip, opts in), a token
 * remembered from before is taken as it was, with the check that must be added to the request's first
 * batch: no lookup of its own.
 */
export async function authenticateToken(
  db: Db,
  secret: string,
  options: { checkInReads?: boolean } = {},
): Promise<{ token: TokenPrincipal | undefined; check?: ReturnType<typeof tokenCheck> }> {
  if (!secret.startsWith(TOKEN_PREFIX) || secret.length > 200) return { token: undefined };
  const tokenHash = await hashToken(secret);
  const hint = options.checkInReads ? tokenHint(tokenHash) : undefined;
  if (!hint || tokenRemembered(tokenHash)) return { token: await tokenOf(db, tokenHash) };
  return { token: hint, check: tokenCheck(db, tokenHash, hint) };
}
