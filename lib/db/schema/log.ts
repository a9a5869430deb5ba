import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./auth";
import { timestamp } from "./columns";
import { projects } from "./projects";

/** One row per context served, for the dashboard's "context served" chart. Written after the response. */
export const contextLog = sqliteTable(
  "context_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    projectId: text("project_id").references(() => projects.id, { onDelete: "cascade" }),
    tokenId: text("token_id"),
    source: text("source"),
    budget: integer("budget").notNull(),
    tokenEstimate: integer("token_estimate").notNull(),
    learningsShown: integer("learnings_shown").notNull(),
    createdAt: timestamp("created_at")
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [index("context_log_project_idx").on(t.projectId, t.createdAt), index("context_log_user_idx").on(t.userId, t.createdAt)],
);

/** Small facts about the installation itself (the first-run setup claim, for one). */
export const appMeta = sqliteTable("app_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at")
    .notNull()
    .$defaultFn(() => new Date()),
});

export type ContextLogRow = typeof contextLog.$inferSelect;
