import { defuseLine } from "../context/pack/fence";
import { ApiError } from "../api/errors";
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { findSessionDoc, finishSessionDoc, type SessionDocView } from "../db/queries/sessions";
import { requireSession, type SessionRef } from "./sessions";

/** doing → done. Only its claimer or a project owner. */
export function completeSession(db: Db, principal: Principal, ref: SessionRef): Promise<SessionDocView> {
  return finish(db, principal, ref, "complete");
}

/** doing → todo, back in the queue for anyone. Only its claimer or a project owner. */
export function releaseSession(db: Db, principal: Principal, ref: SessionRef): Promise<SessionDocView> {
  return finish(db, principal, ref, "release");
}

async function finish(db: Db, principal: Principal, ref: SessionRef, verb: "complete" | "release"): Promise<SessionDocView> {
  const { session, project } = await requireSession(db, principal, ref, "write");
  const changed = await finishSessionDoc(db, {
    projectId: project.id,
    id: session.id,
    userId: principal.userId,
    byAnyone: project.role === "owner",
    to: verb === "complete" ? "done" : "todo",
    now: new Date(),
  });
  const current = await findSessionDoc(db, { projectId: project.id, id: session.id });
  if (!current) throw new ApiError("not_found", `No session document "${session.id}" in "${project.slug}".`);
  if (changed) return current;
  if (current.status !== "doing") {
    throw new ApiError("conflict", `Session "${session.id}" is ${current.status}, not claimed: only a claimed (doing) document can be ${verb}d.`);
  }
  const holder = current.claimedBy ? `${defuseLine(current.claimedBy.name)} <${current.claimedBy.email}>` : "a user who no longer exists";
  throw new ApiError("forbidden", `Session "${session.id}" is claimed by ${holder}; only its claimer or an owner of "${project.slug}" may ${verb} it.`);
}
