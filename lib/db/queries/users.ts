import { count, eq } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { appMeta, authAccounts, authSessions, users } from "../schema";
import type { UserRole } from "../../rules";

export type PublicUser = { id: string; name: string; email: string };

export async function countUsers(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

export async function findUserByEmail(db: DbOrTx, params: { email: string }): Promise<PublicUser | undefined> {
  const [row] = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(eq(users.email, params.email.toLowerCase()));
  return row;
}

export async function getUser(db: DbOrTx, params: { userId: string }): Promise<PublicUser | undefined> {
  const [row] = await db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(eq(users.id, params.userId));
  return row;
}

/**
 * A user with a better-auth credential account (the hash is made by the caller). Null when an account
 * with that email exists: callers check first, but two sign-ups of one email can pass the check at
 * once, and the second must be told so rather than fail on the unique index.
 */
export async function insertUserWithPassword(
  db: DbOrTx,
  params: { id: string; email: string; name: string; passwordHash: string; role?: UserRole },
): Promise<PublicUser | null> {
  const email = params.email.toLowerCase();
  const inserted = await db
    .insert(users)
    .values({ id: params.id, email, name: params.name, emailVerified: false, role: params.role ?? "member" })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  if (!inserted.length) return null;
  await db.insert(authAccounts).values({
    id: crypto.randomUUID(),
    accountId: params.id,
    providerId: "credential",
    userId: params.id,
    password: params.passwordHash,
  });
  return { id: params.id, email, name: params.name };
}

/**
 * Claims the one-time first-run setup. The primary key makes the claim atomic: of two setup forms
 * submitted at once, one inserts the row and the other gets false.
 */
export async function claimSetup(db: DbOrTx, params: { userId: string }): Promise<boolean> {
  const inserted = await db
    .insert(appMeta)
    .values({ key: "setup", value: params.userId })
    .onConflictDoNothing()
    .returning({ key: appMeta.key });
  return inserted.length === 1;
}

/** Ends one dashboard session (a sign-out): nothing when it is gone already. */
export async function deleteAuthSession(db: DbOrTx, token: string): Promise<void> {
  await db.delete(authSessions).where(eq(authSessions.token, token));
}
