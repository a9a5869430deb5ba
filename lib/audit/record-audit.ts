import "server-only";
import type { DbOrTx } from "../db/client";
import { insertAuditEntry } from "../db/queries/audit";
import { getUser } from "../db/queries/users";
import { AUDIT_LABEL_CHARS, type AuditAction, type AuditSubject } from "../rules";

export type AuditEvent = {
  action: AuditAction;
  subject: AuditSubject;
  subjectId: string;
  /** The subject's text (content, an email, a token's name): its first AUDIT_LABEL_CHARS characters are kept. */
  label: string;
  /** The project it belongs to; null for a personal subject, which is then kept under `ownerUserId`. */
  projectId: string | null;
  ownerUserId?: string | null;
  detail?: string | null;
};

/** One line of whitespace, cut to the label length. */
export function auditLabel(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > AUDIT_LABEL_CHARS ? line.slice(0, AUDIT_LABEL_CHARS) : line;
}

/**
 * Records who (`actorUserId`, whose name and email are copied in now) did `event`. Called by the
 * domain function that makes the change, with its transaction when it has one, so the change and its
 * record commit together.
 */
export async function recordAudit(db: DbOrTx, actorUserId: string, event: AuditEvent): Promise<void> {
  const actor = await getUser(db, { userId: actorUserId });
  await insertAuditEntry(db, {
    projectId: event.projectId,
    ownerUserId: event.projectId ? null : (event.ownerUserId ?? actorUserId),
    actorUserId,
    actorName: actor?.name ?? "unknown",
    actorEmail: actor?.email ?? "unknown",
    action: event.action,
    subjectKind: event.subject,
    subjectId: event.subjectId,
    subjectLabel: auditLabel(event.label),
    detail: event.detail ?? null,
  });
}
