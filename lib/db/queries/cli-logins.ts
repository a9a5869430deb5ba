import { and, eq, gt, lt } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { cliLogins, type TokenScope } from "../schema";
import type { CliLoginStatus } from "../../rules";

// A pending `baton login` belongs to nobody yet: it is found by a secret (the device code's hash, which
// only the CLI that asked holds) or by the short code the signed-in person typed. Once decided, it is
// the deciding user's, and its token is made for them alone.

/** A login as the person approving it sees it: no hash, no token settings. */
export type CliLoginRow = {
  id: string;
  userCode: string;
  machine: string;
  address: string;
  status: CliLoginStatus;
  createdAt: Date;
  expiresAt: Date;
};

/** A login as its poll reads it: who decided, and the token they chose. */
export type CliLoginPollRow = CliLoginRow & { userId: string | null; lastPolledAt: Date | null };

/** The token the approver chose, handed to the poll that collects it. */
export type ApprovedToken = { userId: string; name: string; scope: TokenScope; projects: string[] };

const rowColumns = {
  id: cliLogins.id,
  userCode: cliLogins.userCode,
  machine: cliLogins.machine,
  address: cliLogins.address,
  status: cliLogins.status,
  createdAt: cliLogins.createdAt,
  expiresAt: cliLogins.expiresAt,
};

/** Stores a new login; false when its user code is taken (the caller draws another). */
export async function insertCliLogin(
  db: DbOrTx,
  params: { id: string; deviceCodeHash: string; userCode: string; machine: string; address: string; expiresAt: Date },
): Promise<boolean> {
  const inserted = await db.insert(cliLogins).values(params).onConflictDoNothing().returning({ id: cliLogins.id });
  return inserted.length === 1;
}

/** Forgets logins that expired before `before`: their codes are free to be drawn again. */
export async function deleteCliLoginsExpiredBefore(db: DbOrTx, params: { before: Date }): Promise<void> {
  await db.delete(cliLogins).where(lt(cliLogins.expiresAt, params.before));
}

export async function findCliLoginByUserCode(db: DbOrTx, params: { userCode: string }): Promise<CliLoginRow | undefined> {
  const [row] = await db.select(rowColumns).from(cliLogins).where(eq(cliLogins.userCode, params.userCode));
  return row;
}

export async function findCliLoginByDeviceCode(db: DbOrTx, params: { deviceCodeHash: string }): Promise<CliLoginPollRow | undefined> {
  const [row] = await db
    .select({ ...rowColumns, userId: cliLogins.userId, lastPolledAt: cliLogins.lastPolledAt })
    .from(cliLogins)
    .where(eq(cliLogins.deviceCodeHash, params.deviceCodeHash));
  return row;
}

/**
 * Answers a pending login that has not expired at `now`, for `userId`: approved with the token they
 * chose, or denied. False when it was answered already (by anyone) or has expired: a code is answered once.
 */
export async function decideCliLogin(
  db: DbOrTx,
  params: { id: string; userId: string; now: Date } & ({ status: "denied" } | { status: "approved"; token: Omit<ApprovedToken, "userId"> }),
): Promise<boolean> {
  const token =
    params.status === "approved"
      ? { tokenName: params.token.name, tokenScope: params.token.scope, tokenProjects: JSON.stringify(params.token.projects) }
      : {};
  const updated = await db
    .update(cliLogins)
    .set({ status: params.status, userId: params.userId, decidedAt: params.now, ...token })
    .where(and(eq(cliLogins.id, params.id), eq(cliLogins.status, "pending"), gt(cliLogins.expiresAt, params.now)))
    .returning({ id: cliLogins.id });
  return updated.length === 1;
}

export async function markCliLoginPolled(db: DbOrTx, params: { id: string; at: Date }): Promise<void> {
  await db.update(cliLogins).set({ lastPolledAt: params.at }).where(eq(cliLogins.id, params.id));
}

/**
 * Marks an approved login collected and answers the token to make, or undefined when another poll
 * collected it first (or it expired): of two polls at once, one gets the token.
 */
/** The token an approved login asked for, as approved (undefined while not approved). */
export async function approvedTokenOf(db: DbOrTx, params: { id: string }): Promise<ApprovedToken | undefined> {
  const [row] = await db
    .select({ userId: cliLogins.userId, name: cliLogins.tokenName, scope: cliLogins.tokenScope, projects: cliLogins.tokenProjects })
    .from(cliLogins)
    .where(and(eq(cliLogins.id, params.id), eq(cliLogins.status, "approved")));
  if (!row?.userId || !row.name || !row.scope) return undefined;
  return { userId: row.userId, name: row.name, scope: row.scope, projects: JSON.parse(row.projects ?? "[]") as string[] };
}

/** Marks an approved login that has not expired collected (its token handed out); false when it is not such a one (collected already, by another poll at the same moment too). */
export async function collectCliLogin(db: DbOrTx, params: { id: string; now: Date }): Promise<boolean> {
  const collected = await db
    .update(cliLogins)
    .set({ status: "collected" })
    .where(and(eq(cliLogins.id, params.id), eq(cliLogins.status, "approved"), gt(cliLogins.expiresAt, params.now)))
    .returning({ id: cliLogins.id });
  return collected.length === 1;
}
