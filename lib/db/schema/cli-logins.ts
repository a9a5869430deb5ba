import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { CLI_LOGIN_STATUSES, TOKEN_SCOPES } from "../../rules";
import { users } from "./auth";
import { timestamp } from "./columns";

/**
 * A `baton login` waiting for, or given, its answer (device authorisation, RFC 8628's shape): the CLI
 * holds the device code, the person types or follows the user code in the dashboard. No token is
 * stored: approving records what token to make, and the poll that collects it makes it, once.
 */
export const cliLogins = sqliteTable(
  "cli_logins",
  {
    id: text("id").primaryKey(),
    /** SHA-256 of the device code, hex: the CLI's secret, which alone can collect the token. */
    deviceCodeHash: text("device_code_hash").notNull().unique(),
    /** The short code shown in the terminal and the dashboard, normalised (ABCDEFGH, no dash). */
    userCode: text("user_code").notNull().unique(),
    /** What the CLI says about itself (its host name), shown to the person approving. */
    machine: text("machine").notNull(),
    /** The address the request came from, shown beside it. */
    address: text("address").notNull(),
    status: text("status", { enum: CLI_LOGIN_STATUSES }).notNull().default("pending"),
    /** Who approved or denied it; the token collected is theirs. */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    tokenName: text("token_name"),
    tokenScope: text("token_scope", { enum: TOKEN_SCOPES }),
    /** JSON list of project slugs the token is limited to (empty: all of the user's). */
    tokenProjects: text("token_projects"),
    createdAt: timestamp("created_at")
      .notNull()
      .$defaultFn(() => new Date()),
    expiresAt: timestamp("expires_at").notNull(),
    decidedAt: timestamp("decided_at"),
    /** When the CLI last asked: one asking faster than the interval is told to slow down. */
    lastPolledAt: timestamp("last_polled_at"),
  },
  (t) => [index("cli_logins_expires_idx").on(t.expiresAt)],
);
