import "server-only";
import { z } from "zod";
import { cursorPart, decodeCursor } from "../pagination/cursor";
import { limitParam } from "../api/parse-query";
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { listAuditRows, type AuditRow } from "../db/queries/audit";
import { fetchPage, type Page } from "../pagination/fetch-page";
import { requireProject } from "../projects/projects";
import { AUDIT_ACTIONS, AUDIT_SUBJECTS } from "../rules";

export const auditQuerySchema = z.object({ limit: limitParam, cursor: z.string().optional() });

/** What the API says about an entry: no user or project ids. */
export const auditEntryOutSchema = z.object({
  action: z.enum(AUDIT_ACTIONS),
  subject: z.object({ kind: z.enum(AUDIT_SUBJECTS), id: z.string(), label: z.string() }),
  detail: z.string().nullable(),
  actor: z.object({ name: z.string(), email: z.string() }),
  at: z.date(),
});
export type AuditEntry = z.output<typeof auditEntryOutSchema>;

const toEntry = (row: AuditRow): AuditEntry => ({
  action: row.action,
  subject: { kind: row.subjectKind, id: row.subjectId, label: row.subjectLabel },
  detail: row.detail,
  actor: { name: row.actorName, email: row.actorEmail },
  at: row.createdAt,
});

/**
 * A project's audit trail, newest first: for its owners only (members and viewers get 403), since it
 * names who did what to everyone's items.
 */
export async function listProjectAudit(db: Db, principal: Principal, slug: string, query: z.input<typeof auditQuerySchema>): Promise<Page<AuditEntry>> {
  const project = await requireProject(db, principal, slug, "owner");
  const q = auditQuerySchema.parse(query);
  const before = decodeCursor(q.cursor, [cursorPart.count]);
  const page = await fetchPage(q.limit, (limit) => listAuditRows(db, { projectId: project.id, limit, before: before?.[0] }), (last) => [last.id]);
  return { items: page.items.map(toEntry), nextCursor: page.nextCursor };
}
