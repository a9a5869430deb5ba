import { cursorPart, decodeCursor } from "../pagination/cursor";
import { ApiError } from "../api/errors";
import type { Principal } from "../auth/principal";
import { resolveSessionProject } from "../context/project/choose-project";
import { sessionHintsSchema } from "../context/project/project-query";
import type { Db } from "../db/client";
import { sessionMarksWrite } from "../db/queries/context-marks";
import { rememberSession } from "../context/gather/marks";
import { findLatestHandoff, listHandoffs, upsertHandoff, type HandoffRecord } from "../db/queries/handoffs";
import { getUser } from "../db/queries/users";
import { fetchPage, type Page } from "../pagination/fetch-page";
import { requireProject } from "../projects/projects";
import { parseWithheld } from "../secrets/withhold-secrets";
import { handoffTime, newHandoffSchema, type HandoffListQuery } from "./handoff-schemas";

export type ProjectHandoff = HandoffRecord & { project: string };

/**
 * Stores a handoff. With a session id already used in the project it replaces that handoff instead
 * (`created: false`): a Stop hook posts after every turn, and the latest post is the fullest.
 */
export async function writeHandoff(
  db: Db,
  principal: Principal,
  slug: string,
  input: unknown,
): Promise<{ handoff: ProjectHandoff; created: boolean }> {
  const project = await requireProject(db, principal, slug, "write");
  const data = parseWithheld(newHandoffSchema, input);
  // The author is who holds the token: a name the client sends is kept beside it, never instead of it.
  const author = (await getUser(db, { userId: principal.userId }))?.name ?? "unknown";
  const result = await upsertHandoff(db, {
    projectId: project.id,
    userId: principal.userId,
    id: crypto.randomUUID(),
    markdown: data.markdown,
    sessionId: data.sessionId ?? null,
    branch: data.branch ?? null,
    author,
    signedAs: data.author && data.author !== author ? data.author : null,
    agent: data.agent ?? null,
    model: data.model ?? null,
    createdAt: handoffTime(data.writtenAt),
  });
  if (result.outcome === "taken") {
    throw new ApiError("conflict", `The handoff of session "${data.sessionId}" in "${slug}" was written by someone else; use another session id.`);
  }
  // A handoff ends (or checkpoints) a session: the next context's "Last session" counts from it.
  const activity = { userId: principal.userId, sessionId: data.sessionId ?? null, at: result.handoff.createdAt };
  await sessionMarksWrite(db, [activity]);
  rememberSession(activity);
  return { handoff: { ...result.handoff, project: project.slug }, created: result.outcome === "created" };
}

/**
 * A handoff a hook posts for a session (POST /api/handoffs): filed under the project the session is
 * in as the server decides it (lib/context/project/choose-project.ts: the project its start was served for,
 * else the hints resolved the same way), never under a slug the client picked. null: the session is
 * in no project of the user's, and there is no project handoff.
 */
export async function writeSessionHandoff(db: Db, principal: Principal, input: unknown): Promise<{ handoff: ProjectHandoff; created: boolean } | null> {
  // Refused (400) even where it would be filed nowhere, so a client sending a bad field hears of it.
  newHandoffSchema.parse(input);
  const project = await resolveSessionProject(db, principal, sessionHintsSchema.parse(input));
  return project ? writeHandoff(db, principal, project.slug, input) : null;
}

export async function listProjectHandoffs(
  db: Db,
  principal: Principal,
  slug: string,
  query: HandoffListQuery,
): Promise<Page<ProjectHandoff>> {
  const project = await requireProject(db, principal, slug, "read");
  const key = decodeCursor(query.cursor, [cursorPart.time, cursorPart.id]);
  const after = key ? { createdAt: new Date(key[0]), id: key[1] } : undefined;
  const page = await fetchPage(
    query.limit,
    (limit) => listHandoffs(db, { projectId: project.id, branch: query.branch, limit, after }),
    (last) => [last.createdAt.getTime(), last.id],
  );
  return { items: page.items.map((row) => ({ ...row, project: project.slug })), nextCursor: page.nextCursor };
}

/**
 * The handoff the next session should read: the newest on its branch, else the newest of the project.
 * `matchedBranch` says which one it is, so a reader can tell "your branch" from "somewhere in the project".
 */
export async function latestHandoff(
  db: Db,
  principal: Principal,
  slug: string,
  branch: string | undefined,
): Promise<{ handoff: ProjectHandoff; matchedBranch: boolean }> {
  const project = await requireProject(db, principal, slug, "read");
  const onBranch = branch === undefined ? undefined : await findLatestHandoff(db, { projectId: project.id, branch });
  const found = onBranch ?? (await findLatestHandoff(db, { projectId: project.id }));
  if (!found) throw new ApiError("not_found", `No handoff in "${slug}" yet.`);
  return { handoff: { ...found, project: project.slug }, matchedBranch: onBranch !== undefined };
}
