import { sql } from "drizzle-orm";
import { AGENT_NAMES, DEFAULT_SESSION_PRIORITY, FLAG_REASONS, LEARNING_KINDS, LEARNING_ORIGINS, LESSON_KINDS, PROPOSAL_STATUSES, SESSION_STATUSES, SOURCE_DEFAULTS, type EvidenceLine } from "../../rules";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { users } from "./auth";
import { timestamp, timestamps } from "./columns";
import { projects } from "./projects";

/**
 * One seed per user: the agent's identity and state, kept as the JSON of pai-seed's seed.json so an
 * export gives back what an import brought, unknown keys included (`extra`).
 */
export const seeds = sqliteTable("seeds", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  version: text("version").notNull().default("1.0.0"),
  identity: text("identity", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  state: text("state", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  extra: text("extra", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  ...timestamps,
});

/** What a learning and a proposal of one both hold: whose it is, where it is shared, what it says and where it came from. */
const learningBody = {
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  /** null: personal, visible to its owner only. */
  projectId: text("project_id").references(() => projects.id, { onDelete: "cascade" }),
  kind: text("kind", { enum: LEARNING_KINDS }).notNull(),
  content: text("content").notNull(),
  /** A session id, "manual", "import" or "mcp". */
  source: text("source").notNull().default(SOURCE_DEFAULTS.typed),
};

/** Which coding agent produced a handoff or proposal, and its model, when the client said (null: not said). */
const producedBy = {
  agent: text("agent", { enum: AGENT_NAMES }),
  model: text("model"),
};

export const learnings = sqliteTable(
  "learnings",
  {
    // An integer rowid alias that never changes, so the external-content FTS5 index
    // (learnings_fts, kept in sync by triggers in the migration) can point at it safely.
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    ...learningBody,
    confirmed: integer("confirmed", { mode: "boolean" }).notNull().default(false),
    /** Space-separated, so the full-text index reads them as words. */
    tags: text("tags").notNull().default(""),
    /** The id an imported item had in its source file: importing it again finds it. */
    externalId: text("external_id"),
    confirmedAt: timestamp("confirmed_at"),
    /** Keys of an imported seed.json item that Baton has no column for, given back on export. */
    extra: text("extra", { mode: "json" }).$type<Record<string, unknown>>(),
    lastInjectedAt: timestamp("last_injected_at"),
    /** In every context of its project (or, personal, of its user), before the ranked ones. */
    pinned: integer("pinned", { mode: "boolean" }).notNull().default(false),
    /**
     * Set when a reviewer accepted a newer learning in its place: still listed and searchable, never
     * injected. `supersededBy` is the newer one's id (null once that one is deleted).
     */
    supersededAt: timestamp("superseded_at"),
    supersededBy: text("superseded_by").references((): AnySQLiteColumn => learnings.id, { onDelete: "set null" }),
    /** How it came to be (LEARNING_ORIGINS); the proposer is `userId`, their agent and model below. */
    origin: text("origin", { enum: LEARNING_ORIGINS }).notNull().default("typed"),
    /** The proposal it was accepted from (kept as a plain id: a proposal is never deleted alone). */
    proposalId: text("proposal_id"),
    ...producedBy,
    /** Who accepted its proposal, and when (null for a typed or imported one, or once that account is gone). */
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    acceptedAt: timestamp("accepted_at"),
    /** Who last changed its text, and when: an edit when accepting, or later. */
    editedBy: text("edited_by").references(() => users.id, { onDelete: "set null" }),
    editedAt: timestamp("edited_at"),
    /**
     * The files it names (issue 27): paths in its text and its proposal's evidence (lib/learnings/named-files.ts),
     * found at write time. The session-end worker checks them: touched, deleted, rewritten, gone.
     */
    files: text("files", { mode: "json" }).$type<string[]>().notNull().default([]),
    /**
     * Set when a later session deleted or rewrote a file it names, or the file is gone from the
     * repository: it may no longer be true. Cleared by an edit. Bookkeeping, no context_version trigger.
     */
    flaggedAt: timestamp("flagged_at"),
    flagReason: text("flag_reason", { enum: FLAG_REASONS }),
    flagFile: text("flag_file"),
    flagSessionId: text("flag_session_id"),
    /**
     * A person looked at it in the tidy-up queue, stale or flagged, and kept it: those lists leave it out
     * for KEEP_DAYS. A kept pair is kept_pairs'.
     */
    keptAt: timestamp("kept_at"),
    /** Raised on insert and (by a trigger) on every content change; the embedding worker lowers it. */
    needsEmbedding: integer("needs_embedding", { mode: "boolean" }).notNull().default(true),
    ...timestamps,
  },
  (t) => [
    index("learnings_user_idx").on(t.userId, t.createdAt),
    index("learnings_needs_embedding_idx").on(t.needsEmbedding).where(sql`${t.needsEmbedding} = 1`),
    // A user's personal learnings, counted and listed at every context request.
    index("learnings_personal_idx").on(t.userId, t.createdAt).where(sql`${t.projectId} IS NULL`),
    index("learnings_project_idx").on(t.projectId, t.createdAt),
    // Every context counts its learnings by kind, per scope: with kind in the index the count reads the
    // index alone (measured at 50k learnings a scope: 4 ms, against 40 ms through the indexes above).
    index("learnings_personal_kind_idx").on(t.userId, t.kind).where(sql`${t.projectId} IS NULL`),
    index("learnings_project_kind_idx").on(t.projectId, t.kind),
    uniqueIndex("learnings_external_idx").on(t.userId, t.externalId),
    // Every context reads its scope's pinned learnings: few, so a small index of them alone.
    index("learnings_pinned_idx").on(t.projectId, t.userId).where(sql`${t.pinned} = 1`),
    // The tidy-up queue lists a project's flagged learnings; the session-end worker reads those that name files.
    index("learnings_flagged_idx").on(t.projectId, t.flaggedAt).where(sql`${t.flaggedAt} IS NOT NULL`),
    index("learnings_named_files_idx").on(t.projectId, t.createdAt).where(sql`${t.files} <> '[]'`),
    // The tidy-up queue's stale learnings: a project's current ones, least recently injected (or, never, oldest) first.
    index("learnings_stale_idx")
      .on(t.projectId, sql`coalesce(${t.lastInjectedAt}, ${t.createdAt})`)
      .where(sql`${t.supersededAt} IS NULL`),
    // Undoing an accept finds the learnings it superseded.
    index("learnings_superseded_by_idx").on(t.supersededBy).where(sql`${t.supersededBy} IS NOT NULL`),
  ],
);

/**
 * Two learnings a person kept side by side in the tidy-up queue (issue 27): not duplicates nor a
 * contradiction after all. That pair stays out of the queue for KEEP_DAYS; each of the two still pairs
 * with any other learning and is still listed when stale or flagged. One row a pair: a_id < b_id.
 */
export const keptPairs = sqliteTable(
  "kept_pairs",
  {
    aId: text("a_id")
      .notNull()
      .references(() => learnings.id, { onDelete: "cascade" }),
    bId: text("b_id")
      .notNull()
      .references(() => learnings.id, { onDelete: "cascade" }),
    keptAt: timestamp("kept_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.aId, t.bId] }), index("kept_pairs_b_idx").on(t.bId)],
);

export const proposals = sqliteTable(
  "proposals",
  {
    id: text("id").primaryKey(),
    ...learningBody,
    confidence: real("confidence").notNull().default(0.5),
    status: text("status", { enum: PROPOSAL_STATUSES }).notNull().default("pending"),
    /** How many times the same candidate was proposed again and merged into this one. */
    mergedCount: integer("merged_count").notNull().default(0),
    externalId: text("external_id"),
    /** How the candidate was found: PROPOSAL_METHODS, or pai-seed's own (e.g. "regex" or "llm"). */
    method: text("method"),
    /** What kind of lesson the session taught, when the proposer said. */
    lesson: text("lesson", { enum: LESSON_KINDS }),
    /** The session lines it came from, shown to its reviewer; kept when the reviewer edits the text. */
    evidence: text("evidence", { mode: "json" }).$type<EvidenceLine[]>(),
    extra: text("extra", { mode: "json" }).$type<Record<string, unknown>>(),
    learningId: text("learning_id"),
    ...producedBy,
    decidedAt: timestamp("decided_at"),
    ...timestamps,
  },
  (t) => [
    index("proposals_user_status_idx").on(t.userId, t.status, t.createdAt),
    // A project's proposals by status (its pending ones: the review queue, a new proposal's twins, the
    // context's index): decided ones are kept, so without it every such query read the whole table.
    index("proposals_project_status_idx").on(t.projectId, t.status, t.createdAt),
    // The proposal a learning came from, found from the learning (provenance, undoing an accept).
    index("proposals_learning_idx").on(t.learningId).where(sql`${t.learningId} IS NOT NULL`),
    uniqueIndex("proposals_external_idx").on(t.userId, t.externalId),
  ],
);

export const handoffs = sqliteTable(
  "handoffs",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** Who wrote it: the name of the user whose token posted it, never what the client says. */
    author: text("author").notNull(),
    /** The name the client signed it with, when it sent one: kept beside the author, never shown as the author. */
    signedAs: text("signed_as"),
    markdown: text("markdown").notNull(),
    sessionId: text("session_id"),
    branch: text("branch"),
    ...producedBy,
    createdAt: timestamp("created_at")
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [
    index("handoffs_project_idx").on(t.projectId, t.createdAt),
    index("handoffs_project_branch_idx").on(t.projectId, t.branch, t.createdAt),
    uniqueIndex("handoffs_session_idx").on(t.projectId, t.sessionId),
  ],
);

/**
 * A queued unit of work: markdown with YAML front matter, claimed by one agent at a time. Its id is
 * unique within its project only: a global id would let one project squat another's ids and tell
 * whether an id exists in a project the caller cannot see.
 */
export const sessionDocs = sqliteTable(
  "session_docs",
  {
    id: text("id").notNull(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    markdown: text("markdown").notNull(),
    /** Lower runs first. */
    priority: integer("priority").notNull().default(DEFAULT_SESSION_PRIORITY),
    tags: text("tags", { mode: "json" }).$type<string[]>().notNull(),
    branch: text("branch"),
    specs: text("specs", { mode: "json" }).$type<string[]>().notNull(),
    files: text("files", { mode: "json" }).$type<string[]>().notNull(),
    workingDirectory: text("working_directory"),
    status: text("status", { enum: SESSION_STATUSES }).notNull().default("todo"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    claimedBy: text("claimed_by").references(() => users.id, { onDelete: "set null" }),
    claimedAt: timestamp("claimed_at"),
    completedAt: timestamp("completed_at"),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] }), index("session_docs_queue_idx").on(t.projectId, t.status, t.priority, t.createdAt)],
);

export const taskMemories = sqliteTable(
  "task_memories",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    taskId: text("task_id").notNull(),
    markdown: text("markdown").notNull(),
    updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.projectId, t.taskId] })],
);

/** The one task a user is working on in a project. */
export const activeTasks = sqliteTable(
  "active_tasks",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    taskId: text("task_id").notNull(),
    setAt: timestamp("set_at")
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [primaryKey({ columns: [t.userId, t.projectId] })],
);

export type Seed = typeof seeds.$inferSelect;
export type Learning = typeof learnings.$inferSelect;
export type Proposal = typeof proposals.$inferSelect;
export type Handoff = typeof handoffs.$inferSelect;
export type SessionDoc = typeof sessionDocs.$inferSelect;
export type TaskMemory = typeof taskMemories.$inferSelect;
