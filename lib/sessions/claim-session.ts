import { defuseLine } from "../context/pack/fence";
import { ApiError } from "../api/errors";
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { claimNextSessionDoc, claimSessionDoc, findSessionDoc, type SessionDocView } from "../db/queries/sessions";
import { requireProject } from "../projects/projects";
import { requireSession, type SessionRef } from "./sessions";

/**
 * Claims a queued document by project and id (or an unambiguous id). Two agents never both get it,
 * even two agents of one user: the second is told who holds it and since when.
 */
export async function claimSession(db: Db, principal: Principal, ref: SessionRef): Promise<SessionDocView> {
  const { session, project } = await requireSession(db, principal, ref, "write");
  const now = new Date();
  if (await claimSessionDoc(db, { projectId: project.id, id: session.id, userId: principal.userId, now })) {
    return (await findSessionDoc(db, { projectId: project.id, id: session.id }))!;
  }
  const current = await findSessionDoc(db, { projectId: project.id, id: session.id });
  if (!current) throw new ApiError("not_found", `No session document "${session.id}" in "${project.slug}".`);
  throw notClaimable(current, principal);
}

/** Claims the first queued document of a project (priority, then age); 404 when the queue is empty. */
export async function claimNextSession(db: Db, principal: Principal, slug: string): Promise<SessionDocView> {
  const project = await requireProject(db, principal, slug, "write");
  const id = await claimNextSessionDoc(db, { projectId: project.id, userId: principal.userId, now: new Date() });
  if (!id) throw new ApiError("not_found", `Nothing is queued in "${slug}": no session document is waiting (todo).`);
  return (await findSessionDoc(db, { projectId: project.id, id }))!;
}

function notClaimable(session: SessionDocView, principal: Principal): ApiError {
  const who = session.claimedBy ? `${defuseLine(session.claimedBy.name)} <${session.claimedBy.email}>` : "a user who no longer exists";
  const holder = session.claimedByUserId === principal.userId ? `you (${who})` : who;
  if (session.status === "done") {
    const when = session.completedAt ? ` on ${session.completedAt.toISOString()}` : "";
    return new ApiError("conflict", `Session "${session.id}" is already done: completed${when} by ${who}.`);
  }
  if (session.status === "doing") {
    const since = session.claimedAt ? ` since ${session.claimedAt.toISOString()}` : "";
    return new ApiError("conflict", `Session "${session.id}" is already claimed by ${holder}${since}.`);
  }
  // Released again between our claim and this read: tell the caller to simply try again.
  return new ApiError("conflict", `Session "${session.id}" changed hands while you claimed it; try again.`);
}
