import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { AuditAction, AuditSubject } from "../../rules";
import { users } from "./auth";
import { timestamp } from "./columns";
import { projects } from "./projects";

/**
 * Who accepted, rejected, edited, pinned or deleted what. The actor's name and email are copied in at
 * the time, so the trail stays readable after the account is deleted (its id then becomes null); the
 * subject is kept as kind, id and its first characters, so it stays readable after the subject is
 * deleted. A project's entries go with the project. Personal subjects (no project) carry their
 * owner instead, and go with that account.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    projectId: text("project_id").references(() => projects.id, { onDelete: "cascade" }),
    ownerUserId: text("owner_user_id").references(() => users.id, { onDelete: "cascade" }),
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    actorName: text("actor_name").notNull(),
    actorEmail: text("actor_email").notNull(),
    action: text("action").$type<AuditAction>().notNull(),
    subjectKind: text("subject_kind").$type<AuditSubject>().notNull(),
    subjectId: text("subject_id").notNull(),
    subjectLabel: text("subject_label").notNull(),
    detail: text("detail"),
    createdAt: timestamp("created_at")
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [index("audit_log_project_idx").on(t.projectId, t.id), index("audit_log_owner_idx").on(t.ownerUserId, t.id)],
);
