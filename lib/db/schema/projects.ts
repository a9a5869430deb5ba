import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./auth";
import { INVITATION_MAIL_STATES, INVITATION_STATUSES, MATCHER_KINDS, PROJECT_ROLES } from "../../rules";
import { timestamp, timestamps } from "./columns";

export const projects = sqliteTable("projects", {
  id: text("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
  /** An owner's switch: while set, session-start hooks in this project inject nothing. */
  injectionPaused: integer("injection_paused", { mode: "boolean" }).notNull().default(false),
  ...timestamps,
});

export const projectMembers = sqliteTable(
  "project_members",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: PROJECT_ROLES }).notNull(),
    createdAt: timestamp("created_at")
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index("project_members_user_idx").on(t.userId)],
);

/**
 * Who was asked to join a project, by email, and what they decided. A row of project_members means an
 * accepted member; a pending invitation grants nothing, so every query scoped by membership leaves the
 * invitee out until they accept. The email is stored lowercase and matched against the account's
 * email when it is read, so an invitation to someone without an account waits until one exists.
 * Kept by id with a status (not deleted when decided). Its link is a secret kept only as a SHA-256 hash
 * (like an API token's), good while the invitation is pending and before it expires: accepting uses it
 * up, a new link replaces the hash (the old link stops), revoking the invitation stops it.
 */
export const projectInvitations = sqliteTable(
  "project_invitations",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: PROJECT_ROLES }).notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    status: text("status", { enum: INVITATION_STATUSES }).notNull().default("pending"),
    createdAt: timestamp("created_at")
      .notNull()
      .$defaultFn(() => new Date()),
    decidedAt: timestamp("decided_at"),
    linkHash: text("link_hash"),
    linkExpiresAt: timestamp("link_expires_at"),
    /** Where the mail with the link stands; null when this server mails nothing (no BATON_SMTP_URL). */
    mailState: text("mail_state", { enum: INVITATION_MAIL_STATES }),
  },
  (t) => [
    uniqueIndex("project_invitations_link_hash").on(t.linkHash),
    // One pending invitation per email and project: inviting again while one waits adds nothing.
    uniqueIndex("project_invitations_pending").on(t.projectId, t.email).where(sql`status = 'pending'`),
    index("project_invitations_email_idx").on(t.email, t.status),
  ],
);

/** Maps a working directory (path suffix) or a git remote to a project when a hook does not name one. */
export const projectMatchers = sqliteTable(
  "project_matchers",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: MATCHER_KINDS }).notNull(),
    pattern: text("pattern").notNull(),
    createdAt: timestamp("created_at")
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [uniqueIndex("project_matchers_unique").on(t.projectId, t.kind, t.pattern)],
);

export type Project = typeof projects.$inferSelect;
export type ProjectMember = typeof projectMembers.$inferSelect;
export type ProjectInvitation = typeof projectInvitations.$inferSelect;
