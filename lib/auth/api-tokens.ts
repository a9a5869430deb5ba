import { createHash } from "node:crypto";
import { z } from "zod";
import { ApiError } from "../api/errors";
import { recordAudit } from "../audit/record-audit";
import type { Db } from "../db/client";
import { deleteToken, findTokenByHash, insertToken, listTokens, projectIdsBySlugs, touchToken, type TokenPrincipal, type TokenRecord } from "../db/queries/tokens";
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

function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const base64url = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return TOKEN_PREFIX + base64url;
}

/** Creates a token and returns its secret: the only time it exists outside the caller's hands. */
export async function createApiToken(db: Db, params: { userId: string } & NewToken): Promise<{ token: string; record: TokenRecord }> {
  const data = newTokenSchema.parse(params);
  const slugs = [...new Set(data.projects)];
  const ids = await projectIdsBySlugs(db, { userId: params.userId, slugs });
  const missing = slugs.filter((s) => !ids.has(s));
  if (missing.length) throw new ApiError("not_found", `No project ${missing.join(", ")} that you are a member of.`);
  const token = generateSecret();
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
  recentTokens.forget(params.tokenId);
}

/** The token a Bearer secret names, or undefined; last-used time is kept to the minute. */
/**
 * Tokens seen in the last few seconds, so a busy agent's requests do not each look theirs up. A token
 * revoked here is forgotten at once; one revoked through another instance on the same database stops
 * working within TOKEN_CACHE_MS. Unknown tokens are never cached.
 */
const TOKEN_CACHE_MS = 5000;

class RecentTokens {
  private readonly entries = new Map<string, { token: TokenPrincipal; until: number }>();

  get(hash: string, now: number): TokenPrincipal | undefined {
    const entry = this.entries.get(hash);
    if (entry && entry.until > now) return entry.token;
    if (entry) this.entries.delete(hash);
    return undefined;
  }

  set(hash: string, token: TokenPrincipal, now: number): void {
    this.entries.set(hash, { token, until: now + TOKEN_CACHE_MS });
    if (this.entries.size > 10_000) this.entries.delete(this.entries.keys().next().value!);
  }

  forget(tokenId: string): void {
    for (const [hash, entry] of this.entries) if (entry.token.id === tokenId) this.entries.delete(hash);
  }
}

const holder = globalThis as unknown as { __batonRecentTokens?: RecentTokens };
const recentTokens = (holder.__batonRecentTokens ??= new RecentTokens());

export async function authenticateToken(db: Db, secret: string): Promise<TokenPrincipal | undefined> {
  if (!secret.startsWith(TOKEN_PREFIX) || secret.length > 200) return undefined;
  const tokenHash = await hashToken(secret);
  const cached = recentTokens.get(tokenHash, Date.now());
  if (cached) return cached;
  const token = await findTokenByHash(db, { tokenHash });
  if (token) recentTokens.set(tokenHash, token, Date.now());
  // Checked here first: even an UPDATE that changes nothing takes SQLite's write lock, and this runs on
  // every API request.
  const now = new Date();
  if (token && (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() > 60_000)) {
    await touchToken(db, { tokenId: token.id, now, minAgeMs: 60_000 });
  }
  return token;
}
