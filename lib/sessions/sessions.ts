import { cursorPart, decodeCursor } from "../pagination/cursor";
import { ApiError } from "../api/errors";
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { findSessionDoc, findSessionDocsForUser, insertSessionDoc, listSessionDocs, type SessionDocView } from "../db/queries/sessions";
import { fetchPage, type Page } from "../pagination/fetch-page";
import { requireProject } from "../projects/projects";
import { parseWithheld } from "../secrets/withhold-secrets";
import type { MemberProject } from "../db/queries/projects";
import { parseSessionDocument, sessionBody } from "./parse-session-document";
import { newSessionSchema, sessionIdParam, type SessionListQuery } from "./session-schemas";

/** Queues a session document; its front matter gives id, priority, branch, paths and age. */
export async function createSession(db: Db, principal: Principal, slug: string, input: unknown): Promise<SessionDocView> {
  const project = await requireProject(db, principal, slug, "write");
  const { markdown } = parseWithheld(newSessionSchema, input);
  const front = parseSessionDocument(markdown);
  if (!sessionBody(markdown).trim()) {
    const message = "The session document has front matter but nothing below it: write the task after the closing --- line.";
    throw new ApiError("validation_failed", message, [{ path: ["markdown"], message, code: "empty_session_document" }]);
  }
  const id = front.id ?? crypto.randomUUID();
  const inserted = await insertSessionDoc(db, {
    projectId: project.id,
    id,
    markdown,
    priority: front.priority,
    tags: front.tags,
    branch: front.branch,
    specs: front.specs,
    files: front.files,
    workingDirectory: front.workingDirectory,
    createdBy: principal.userId,
    createdAt: front.createdAt ?? new Date(),
  });
  if (!inserted) throw new ApiError("conflict", `A session document with the id "${id}" already exists in "${project.slug}"; choose another id.`);
  return (await findSessionDoc(db, { projectId: project.id, id }))!;
}

export async function listSessions(
  db: Db,
  principal: Principal,
  slug: string,
  query: SessionListQuery,
): Promise<Page<SessionDocView>> {
  const project = await requireProject(db, principal, slug, "read");
  const key = decodeCursor(query.cursor, [cursorPart.integer, cursorPart.time, cursorPart.id]);
  const after = key ? { priority: key[0], createdAt: new Date(key[1]), id: key[2] } : undefined;
  return fetchPage(
    query.limit,
    (limit) => listSessionDocs(db, { projectId: project.id, status: query.status, limit, after }),
    (last) => [last.priority, last.createdAt.getTime(), last.id],
  );
}

/** The documents of a project the principal holds (claimed, not done yet), in queue order, at most `limit`. */
export async function listHeldSessions(db: Db, principal: Principal, slug: string, limit: number): Promise<SessionDocView[]> {
  const project = await requireProject(db, principal, slug, "read");
  return listSessionDocs(db, { projectId: project.id, status: "doing", claimedBy: principal.userId, limit });
}

/**
 * How a request names a session document: its project and id, or the id alone, which stands for the
 * document only while exactly one of the caller's projects has one so named.
 */
export type SessionRef = { project?: string; id: string };

export async function getSession(db: Db, principal: Principal, ref: SessionRef): Promise<SessionDocView> {
  return (await requireSession(db, principal, ref, "read")).session;
}

/**
 * A session document the principal may touch, with its project: 404 when no project of theirs (of the
 * token's, for a project-limited token) has it (another project's ids are never told: the answer is the
 * one a free id gets), 403 when the token or role falls short of `need`, 409 naming the caller's
 * projects when the id alone fits several.
 */
export async function requireSession(
  db: Db,
  principal: Principal,
  ref: SessionRef,
  need: "read" | "write",
): Promise<{ session: SessionDocView; project: MemberProject }> {
  const sessionId = sessionIdParam.parse(ref.id);
  if (ref.project !== undefined) {
    const project = await requireProject(db, principal, ref.project, need);
    const session = await findSessionDoc(db, { projectId: project.id, id: sessionId });
    if (!session) throw new ApiError("not_found", `No session document "${sessionId}" in "${project.slug}".`);
    return { session, project };
  }
  // A project-limited token sees its projects only: another's copy of the id is neither a conflict nor a 403.
  const found = await findSessionDocsForUser(db, { userId: principal.userId, id: sessionId, onlyIds: principal.projectIds });
  if (found.length > 1) {
    const slugs = found.map((s) => s.project);
    throw new ApiError(
      "conflict",
      `Session document "${sessionId}" is in more than one of your projects (${slugs.join(", ")}): name the project, as in /api/projects/${slugs[0]}/sessions/${sessionId} (baton: --project ${slugs[0]}).`,
    );
  }
  const session = found[0];
  if (!session) throw new ApiError("not_found", `No session document "${sessionId}" in a project of yours.`);
  const project = await requireProject(db, principal, session.project, need);
  return { session, project };
}
