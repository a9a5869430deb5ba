import "server-only";
import { hashPassword } from "better-auth/crypto";
import { after } from "next/server";
import { z } from "zod";
import { ApiError } from "../api/errors";
import { recordAudit } from "../audit/record-audit";
import { generateSecret, hashToken, secretHashOf } from "../auth/api-tokens";
import { newUserSchema } from "../auth/create-user";
import type { Principal } from "../auth/principal";
import { signInLimiter } from "../auth/sign-in-limiter";
import { forgetTokensOf } from "../auth/token-memory";
import type { Db } from "../db/client";
import {
  disableUser,
  enableUser,
  findPasswordReset,
  findUserAccess,
  listUsersPage,
  replacePasswordReset,
  setPasswordAndSignOut,
  takePasswordReset,
  updateUserRole,
  type AdminUserRow,
} from "../db/queries/admin-users";
import { getUser } from "../db/queries/users";
import { closeInvitationsOf, trail } from "../projects/members";
import { mailConfigured, sendMail } from "../mail/send-mail";
import { utcMinute } from "../context/pack/relative-time";
import { ADMIN_USERS_PAGE_SIZE, PASSWORD_RESET_HOURS, USER_ROLES } from "../rules";
import { wholeNumber } from "../api/parse-query";

// Who is an admin is a column (users.role): the first account is one, and admins promote others. Only
// an admin reaches anything here; to anyone else every admin page, route and action is a 404 like a
// path that does not exist (requireAdmin), so a member learns nothing of what an admin could do.

/** The one answer to a non-admin, on every admin route: the API's answer for a route that does not exist. */
const NOT_AN_ADMIN = "No such API route. See GET /api/health and the README.";

/** Whether this user is an active admin (the dashboard's nav and /admin page ask). */
export async function isAdmin(db: Db, userId: string): Promise<boolean> {
  const access = await findUserAccess(db, { userId });
  return access?.role === "admin" && !access.disabled;
}

/**
 * Refuses anyone but an active admin, with the 404 of a missing route; and an admin's token limited to
 * some projects, which speaks for those projects only (as it cannot create one or answer an invitation):
 * never for every account on the server.
 */
export async function requireAdmin(db: Db, principal: Principal): Promise<void> {
  if (!(await isAdmin(db, principal.userId))) throw new ApiError("not_found", NOT_AN_ADMIN);
  if (principal.projectIds) throw new ApiError("forbidden", "This token is limited to some projects and cannot manage the server's accounts.");
}

export const listUsersQuerySchema = z.object({ page: wholeNumber(1, 100_000).default(1) });

const adminUserOutSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(USER_ROLES),
  createdAt: z.date(),
  disabled: z.boolean(),
  disabledAt: z.date().nullable(),
  lastActiveAt: z.date().nullable(),
  projects: z.array(z.object({ slug: z.string(), name: z.string(), role: z.string() })),
});
export type AdminUserOut = z.output<typeof adminUserOutSchema>;

const toAdminUserOut = (row: AdminUserRow): AdminUserOut => adminUserOutSchema.parse({ ...row, disabled: row.disabledAt !== null });

/** A page of the server's users (ADMIN_USERS_PAGE_SIZE a page, newest first). */
export async function listUsers(db: Db, principal: Principal, input: unknown): Promise<{ items: AdminUserOut[]; page: number; pages: number; total: number }> {
  await requireAdmin(db, principal);
  const { page } = listUsersQuerySchema.parse(input);
  const { users, total } = await listUsersPage(db, { limit: ADMIN_USERS_PAGE_SIZE, offset: (page - 1) * ADMIN_USERS_PAGE_SIZE });
  return { items: users.map(toAdminUserOut), page, pages: Math.max(1, Math.ceil(total / ADMIN_USERS_PAGE_SIZE)), total };
}

export const userIdSchema = z.object({ userId: z.string().min(1).max(100) });
export const setRoleSchema = userIdSchema.extend({ role: z.enum(USER_ROLES) });

const noSuchUser = () => new ApiError("not_found", "No such user.");
const lastAdmin = () => new ApiError("conflict", "That is the last active admin: promote someone else first.");

/** The user an admin acts on, for the messages and the audit trail. */
async function targetOf(db: Db, userId: string) {
  const user = await getUser(db, { userId });
  if (!user) throw noSuchUser();
  return user;
}

/** Promotes a user to admin or demotes one to member; never the last active admin. */
export async function setUserRole(db: Db, principal: Principal, input: unknown): Promise<{ email: string; role: string }> {
  await requireAdmin(db, principal);
  const { userId, role } = setRoleSchema.parse(input);
  const user = await targetOf(db, userId);
  await db.transaction(async (tx) => {
    const done = await updateUserRole(tx, { userId, role });
    if (!done) throw noSuchUser();
    if (done === "last_admin") throw lastAdmin();
    await recordAudit(tx, principal.userId, { action: "edit", subject: "user", subjectId: userId, label: user.email, projectId: null, detail: `role ${role}` });
  });
  return { email: user.email, role };
}

/**
 * Disables a user: no sign-in (refused as a wrong password is), their sessions ended, their tokens
 * revoked (401 at their next request: forgotten here at once, on other instances within the token
 * memory's few seconds, as a revoked token is), their reset link and uncollected `baton login` codes
 * void. Nothing they wrote is touched. Never oneself, never the last active admin.
 */
export async function disableUserAccount(db: Db, principal: Principal, input: unknown): Promise<{ email: string; tokensRevoked: number }> {
  await requireAdmin(db, principal);
  const { userId } = userIdSchema.parse(input);
  if (userId === principal.userId) throw new ApiError("conflict", "You cannot disable your own account.");
  const user = await targetOf(db, userId);
  const revoked = await db.transaction(async (tx) => {
    const done = await disableUser(tx, { userId, at: new Date() });
    if (!done) throw noSuchUser();
    if (done === "last_admin") throw lastAdmin();
    // Enabled again later, they do not bring back the invitations they sent: an owner invites again.
    const closed = await closeInvitationsOf(tx, userId);
    await recordAudit(tx, principal.userId, { action: "edit", subject: "user", subjectId: userId, label: user.email, projectId: null, detail: trail(`disabled, ${done.tokenIds.length} tokens revoked`, closed) });
    return done.tokenIds.length;
  });
  forgetTokensOf(userId);
  return { email: user.email, tokensRevoked: revoked };
}

/** Lets a disabled user sign in again. Their old tokens stay revoked: they make new ones. */
export async function enableUserAccount(db: Db, principal: Principal, input: unknown): Promise<{ email: string }> {
  await requireAdmin(db, principal);
  const { userId } = userIdSchema.parse(input);
  const user = await targetOf(db, userId);
  await db.transaction(async (tx) => {
    if (!(await enableUser(tx, { userId }))) throw noSuchUser();
    await recordAudit(tx, principal.userId, { action: "edit", subject: "user", subjectId: userId, label: user.email, projectId: null, detail: "enabled" });
  });
  return { email: user.email };
}

/** Starts every reset link's secret: recognisable when leaked, never taken for a token or an invitation. */
const RESET_PREFIX = "reset_";
const RESET_MS = PASSWORD_RESET_HOURS * 60 * 60 * 1000;

/** The one answer for a reset link that does not work, whatever the reason. */
export const DEAD_RESET_MESSAGE = "This password reset link cannot be used: it may have expired, been replaced by a newer link or been used already. Ask an admin for a new one.";

export type ResetLinkShown = { email: string; link: string; expiresAt: Date; mailed: boolean };

/**
 * An admin makes a one-time password reset link for a user (shown once, mailed too when this server
 * mails); a newer link voids the older. Not for a disabled account (enable it first).
 */
export async function makeResetLink(db: Db, principal: Principal, input: unknown, origin: string): Promise<ResetLinkShown> {
  await requireAdmin(db, principal);
  const { userId } = userIdSchema.parse(input);
  const user = await targetOf(db, userId);
  if ((await findUserAccess(db, { userId }))?.disabled) throw new ApiError("conflict", `${user.email} is disabled: enable the account first.`);
  const token = generateSecret(RESET_PREFIX);
  const expiresAt = new Date(Date.now() + RESET_MS);
  await db.transaction(async (tx) => {
    await replacePasswordReset(tx, { userId, linkHash: await hashToken(token), expiresAt, createdBy: principal.userId });
    await recordAudit(tx, principal.userId, { action: "add", subject: "user", subjectId: userId, label: user.email, projectId: null, detail: "password reset link" });
  });
  const link = `${origin}/reset/${token}`;
  if (mailConfigured()) mailResetLater({ to: user.email, name: user.name, link, expiresAt });
  return { email: user.email, link, expiresAt, mailed: mailConfigured() };
}

/** Mailed after the response: the admin's form never waits on a mail server. A failure is logged. */
function mailResetLater(mail: { to: string; name: string; link: string; expiresAt: Date }): void {
  after(async () => {
    try {
      await sendMail({
        to: mail.to,
        subject: "Set a new Baton password",
        text: [
          `Hello ${mail.name},`,
          "",
          `An admin of your Baton server made this link for you to set a new password. It works once, until ${utcMinute(mail.expiresAt)}:`,
          mail.link,
          "",
          "Setting a password there signs you out everywhere. If you did not ask for this, tell your admin.",
          "",
        ].join("\n"),
      });
    } catch (error) {
      console.error(`baton: the password reset mail to ${mail.to} was not sent: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}

/** The account a reset link is for; not_found with DEAD_RESET_MESSAGE for every link that works for none. */
export async function resetLinkUser(db: Db, token: string): Promise<{ userId: string; name: string; email: string }> {
  const linkHash = await secretHashOf(RESET_PREFIX, token);
  const found = linkHash ? await findPasswordReset(db, { linkHash, now: new Date() }) : undefined;
  if (!found) throw new ApiError("not_found", DEAD_RESET_MESSAGE);
  return found;
}

export const resetPasswordSchema = newUserSchema.pick({ password: true });

/** Sets the new password a reset link allows, uses the link up and signs the account out everywhere. */
export async function resetPasswordByLink(db: Db, token: string, input: unknown): Promise<{ email: string }> {
  const { password } = resetPasswordSchema.parse(input);
  const user = await resetLinkUser(db, token);
  // scrypt takes a while: outside the transaction, which then holds the write lock only briefly.
  const passwordHash = await hashPassword(password);
  const linkHash = (await secretHashOf(RESET_PREFIX, token))!;
  await db.transaction(async (tx) => {
    if ((await takePasswordReset(tx, { linkHash, now: new Date() })) !== user.userId) throw new ApiError("not_found", DEAD_RESET_MESSAGE);
    await setPasswordAndSignOut(tx, { userId: user.userId, passwordHash });
    await recordAudit(tx, user.userId, { action: "edit", subject: "user", subjectId: user.userId, label: user.email, projectId: null, detail: "password set by reset link" });
  });
  // Someone's guesses locked the email out of signing in: the new password opens it again.
  signInLimiter.forgetEmail(user.email);
  return { email: user.email };
}
