import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./auth";
import { TOKEN_SCOPES } from "../../rules";
import { timestamp } from "./columns";
import { projects } from "./projects";

export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 of the whole secret, hex. The secret itself is shown once and never stored. */
    tokenHash: text("token_hash").notNull().unique(),
    /** The first characters of the secret, enough to recognise it in a list. */
    displayPrefix: text("display_prefix").notNull(),
    scope: text("scope", { enum: TOKEN_SCOPES }).notNull(),
    createdAt: timestamp("created_at")
      .notNull()
      .$defaultFn(() => new Date()),
    lastUsedAt: timestamp("last_used_at"),
  },
  (t) => [index("api_tokens_user_idx").on(t.userId)],
);

/** A token with rows here may touch only these projects; a token without rows is not limited. */
export const apiTokenProjects = sqliteTable(
  "api_token_projects",
  {
    tokenId: text("token_id")
      .notNull()
      .references(() => apiTokens.id, { onDelete: "cascade" }),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.projectId] })],
);

export type ApiToken = typeof apiTokens.$inferSelect;
