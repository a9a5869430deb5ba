import "server-only";
import { and, desc, eq, inArray, lt, type SQL } from "drizzle-orm";
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

/**
 * Who made the latest of `actions` on one subject of a project, by id: the actor's user id (null once
 * that account is gone), or undefined when none is recorded. Newest first on the project's index.
 */
export async function latestActorOf(
  db: DbOrTx,
  params: { projectId: string; subjectKind: AuditRow["subjectKind"]; subjectId: string; actions: AuditRow["action"][] },
): Promise<string | null | undefined> {
  const [row] = await db
    .select({ actorUserId: auditLog.actorUserId })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.projectId, params.projectId),
        eq(auditLog.subjectKind, params.subjectKind),
        eq(auditLog.subjectId, params.subjectId),
        inArray(auditLog.action, params.actions),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row ? row.actorUserId : undefined;
}
