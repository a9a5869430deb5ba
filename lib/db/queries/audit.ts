import "server-only";
import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../client";
import { auditLog } from "../schema";

export type AuditRow = {
  id: number;
  action: (typeof auditLog.$inferSelect)["action"];
  subjectKind: (typeof auditLog.$inferSelect)["subjectKind"];
  subjectId: string;
  subjectLabel: string;
  detail: string | null;
  actorName: string;
  actorEmail: string;
  createdAt: Date;
};

export type NewAuditEntry = Omit<typeof auditLog.$inferInsert, "id" | "createdAt">;

export async function insertAuditEntry(db: DbOrTx, entry: NewAuditEntry): Promise<void> {
  await db.insert(auditLog).values(entry);
}

/** A project's trail, newest first (ids grow with time), after the `before` id when paging on. */
export async function listAuditRows(db: DbOrTx, params: { projectId: string; limit: number; before?: number }): Promise<AuditRow[]> {
  const where: SQL[] = [eq(auditLog.projectId, params.projectId)];
  if (params.before !== undefined) where.push(lt(auditLog.id, params.before));
  return db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      subjectKind: auditLog.subjectKind,
      subjectId: auditLog.subjectId,
      subjectLabel: auditLog.subjectLabel,
      detail: auditLog.detail,
      actorName: auditLog.actorName,
      actorEmail: auditLog.actorEmail,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(params.limit);
}
