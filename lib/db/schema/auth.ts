import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { USER_ROLES } from "../../rules";
import { timestamp, timestamps } from "./columns";

// The four tables better-auth's drizzle adapter expects (user, session, account, verification),
// written by hand from its schema because its generator crashes on Node 20.

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
  image: text("image"),
  /** Who may manage the server's users (lib/admin): the first account, and whoever an admin promotes. */
  role: text("role", { enum: USER_ROLES }).notNull().default("member"),
  /** Set while an admin has disabled the account: no sign-in, no session, no token (lib/admin/users.ts). */
  disabledAt: timestamp("disabled_at"),
  ...timestamps,
});

/**
 * A password reset link an admin made for a user: one per user (a newer link replaces the older), its
 * secret kept only as a SHA-256 hash (as invitation links and API tokens are), good once until it expires.
 */
export const passwordResets = sqliteTable("password_resets", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  linkHash: text("link_hash").notNull().unique(),
  expiresAt: timestamp("expires_at").notNull(),
  createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: timestamp("created_at")
    .notNull()
    .$defaultFn(() => new Date()),
});

export const authSessions = sqliteTable(
  "auth_sessions",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at").notNull(),
    token: text("token").notNull().unique(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (t) => [index("auth_sessions_user_idx").on(t.userId)],
);

export const authAccounts = sqliteTable(
  "auth_accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at"),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at"),
    scope: text("scope"),
    /** better-auth's scrypt hash (salt:key); never leaves the server. */
    password: text("password"),
    ...timestamps,
  },
  (t) => [index("auth_accounts_user_idx").on(t.userId)],
);

export const authVerifications = sqliteTable(
  "auth_verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at").notNull(),
    ...timestamps,
  },
  (t) => [index("auth_verifications_identifier_idx").on(t.identifier)],
);

export type User = typeof users.$inferSelect;
