import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { TOUCH_HOWS } from "../../rules";
import { users } from "./auth";
import { timestamp } from "./columns";
import { learnings } from "./memory";
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

/**
 * Which learnings a host session (Claude Code's session id) has been given, at its start and at its
 * prompts, so the prompt stage never gives one twice: one row per context or prompt answer served,
 * its learnings' ids as a JSON array (a row per learning cost a session start some 70 inserts).
 * Bookkeeping, written with the served-context log; rows older than SESSION_SERVED_RETENTION_DAYS are
 * deleted by that same write. No foreign key to the learnings: a deleted learning's id is harmless.
 */
export const sessionServed = sqliteTable(
  "session_served",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: text("session_id").notNull(),
    learningIds: text("learning_ids", { mode: "json" }).$type<string[]>().notNull(),
    servedAt: timestamp("served_at").notNull(),
  },
  (t) => [index("session_served_session_idx").on(t.userId, t.sessionId), index("session_served_at_idx").on(t.servedAt)],
);

/**
 * Used or not (issue 27): for each learning a session was given, whether the session touched what it
 * is about, as the session-end worker decided on the developer's machine (only the verdict comes
 * here). One row per learning and session, so a session reported twice counts once. Kept as long as
 * the learning (no retention: it is what "given in 12 sessions, touched in 5" counts). Not a ranking signal.
 */
export const learningUsage = sqliteTable(
  "learning_usage",
  {
    learningId: text("learning_id")
      .notNull()
      .references(() => learnings.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: text("session_id").notNull(),
    touched: integer("touched", { mode: "boolean" }).notNull(),
    /** How it was touched (null: not touched). */
    how: text("how", { enum: TOUCH_HOWS }),
    reportedAt: timestamp("reported_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.learningId, t.userId, t.sessionId] })],
);

/**
 * What a session is about as its start searched for it: the words of its hints (`words`) and those its
 * best matches' tags added (`related`: the store's own words for the topic, searched, never taken as
 * the topic itself).
 */
export type SessionTopic = { words: string[]; related: string[] };

/**
 * Which project a host session's start context was served for (null: the personal context), so its
 * prompts, its checkpoint and its end land where its start did, whatever the hints say later. Written
 * with the served-context bookkeeping (no round trip of its own); forgotten with session_served.
 */
export const sessionProjects = sqliteTable(
  "session_projects",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: text("session_id").notNull(),
    // A deleted project forgets its sessions: they are resolved again.
    projectId: text("project_id").references(() => projects.id, { onDelete: "cascade" }),
    // What the session is about: the words its start searched for (at most SESSION_TERMS), for the prompt stage.
    terms: text("terms", { mode: "json" }).$type<SessionTopic>(),
    servedAt: timestamp("served_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.sessionId] }), index("session_projects_at_idx").on(t.servedAt)],
);

/**
 * What a user's contexts remember of them between sessions, one row a user, written at write time so
 * a context reads it by key in its first batch: their last session (a session start served, or a
 * handoff posted) and, for the context served inside that very session (after a compaction, a
 * resume), the one before it; and when the "Baton setup" note was first shown, so it is shown once.
 * Bookkeeping: no context_version trigger (a session start must not empty every instance's caches).
 */
export const contextMarks = sqliteTable("context_marks", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  lastSessionId: text("last_session_id"),
  lastSessionAt: timestamp("last_session_at"),
  previousSessionAt: timestamp("previous_session_at"),
  setupNoteAt: timestamp("setup_note_at"),
});

/** Small facts about the installation itself (the first-run setup claim, for one). */
export const appMeta = sqliteTable("app_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at")
    .notNull()
    .$defaultFn(() => new Date()),
});

export type ContextLogRow = typeof contextLog.$inferSelect;
