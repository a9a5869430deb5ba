import type { z } from "zod";
import { ApiError } from "../api/errors";
import { recordAudit } from "../audit/record-audit";
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import {
  deleteLearning,
  findLearning,
  listRecentLearnings,
  updateLearning,
  type LearningRow,
} from "../db/queries/learnings";
import { searchLearnings } from "../db/queries/learning-search";
import { findSameLearning, insertLearningUnlessSame } from "../db/queries/learning-twin";
import { cursorPart, decodeCursor } from "../pagination/cursor";
import { fetchPage, type Page } from "../pagination/fetch-page";
import { projectIdsFor, requireProject } from "../projects/projects";
import { parseWithheld } from "../secrets/withhold-secrets";
import { ftsExpression, searchWords } from "./fts-query";
import { searchReadable } from "./readable-search";
import { findProposal } from "../db/queries/proposals";
import { flagText } from "./learning-usage";
import { learningFiles } from "./named-files";
import { learningPatchSchema, learningQuerySchema, newLearningSchema } from "./learning-schemas";

export type LearningPage = Page<LearningRow>;

/**
 * Lists the learnings a request may see: its user's personal ones and its projects'. With `q`, ranked
 * by BM25 (cursor: an offset), none when `q` has no word to search for; without, newest first (cursor:
 * the last created_at and seq).
 */
export async function listLearnings(db: Db, principal: Principal, query: z.input<typeof learningQuerySchema>): Promise<LearningPage> {
  const q = learningQuerySchema.parse(query);
  const projectIds = await projectIdsFor(db, principal, "read");
  const projectId = q.project ? (await requireProject(db, principal, q.project)).id : undefined;
  const filter = { userId: principal.userId, projectIds, projectId, kind: q.kind, pinned: q.pinned };
  const words = q.q ? searchWords(q.q) : [];
  const match = ftsExpression(words);
  // A search with nothing to search for (symbols, stop words, one letter) finds nothing: not the newest.
  if (!match && q.q?.trim()) return { items: [], nextCursor: null };

  if (match) {
    const [offset] = decodeCursor(q.cursor, [cursorPart.count]) ?? [0];
    // Ranked over what the reader may read (the index in memory), else by FTS5 over the whole store.
    const search = async (limit: number) => (await searchReadable(db, { ...filter, limit, words, offset })) ?? searchLearnings(db, { ...filter, limit, match, offset });
    return fetchPage(q.limit, search, () => [offset + q.limit]);
  }
  const before = decodeCursor(q.cursor, [cursorPart.time, cursorPart.count]);
  return fetchPage(q.limit, (limit) => listRecentLearnings(db, { ...filter, limit, before }), (last) => [last.createdAt.getTime(), last.seq]);
}

export async function getLearning(db: Db, principal: Principal, id: string): Promise<LearningRow> {
  const row = await findLearning(db, { id, userId: principal.userId, projectIds: await projectIdsFor(db, principal, "read") });
  if (!row) throw new ApiError("not_found", "No such learning.");
  return row;
}

/**
 * Stores a new learning. One its scope (the project, or the user's personal ones) already holds in use,
 * the same in every field the write gives, is not stored twice: `created` is false and the learning is the
 * one stored (a client that sends a write again, not knowing the first arrived, gets what the first made).
 */
export async function createLearning(db: Db, principal: Principal, input: unknown): Promise<{ learning: LearningRow; created: boolean }> {
  const data = parseWithheld(newLearningSchema, input);
  const projectId = data.project ? (await requireProject(db, principal, data.project, "write")).id : null;
  const { content, kind, tags, pinned, confirmed } = data;
  // The twin's check and the insert in one statement: two of the same sent at once (a retry while the
  // first is still being stored) would otherwise both find none, and both be stored.
  const id = crypto.randomUUID();
  const row = {
    id,
    userId: principal.userId,
    projectId,
    kind,
    content,
    source: data.source,
    confirmed,
    pinned,
    tags,
    // A client may date a learning back (one kept elsewhere before), never ahead: a future one would head every newest-first list for good.
    createdAt: data.createdAt ? new Date(Math.min(Date.parse(data.createdAt), Date.now())) : undefined,
  };
  let twin: string | undefined;
  // Twice at most: a twin superseded between the insert that found it and the read of its id is no twin.
  for (let attempt = 0; attempt < 2 && !twin; attempt++) {
    if (await insertLearningUnlessSame(db, row)) break;
    twin = await findSameLearning(db, row);
  }
  if (twin) return { learning: await getLearning(db, principal, twin), created: false };
  const learning = await getLearning(db, principal, id);
  // A pinned learning is in every context of its project: the owners see who put it there.
  if (learning.pinned) await recordAudit(db, principal.userId, { action: "pin", ...auditSubject(learning), detail: "added pinned" });
  return { learning, created: true };
}

/** A learning the request may see but not change (a viewer's project) is 403; one it cannot see, 404. */
async function writableScope(db: Db, principal: Principal, id: string) {
  const current = await getLearning(db, principal, id);
  const projectIds = await projectIdsFor(db, principal, "write");
  if (current.projectId && !projectIds.includes(current.projectId)) {
    throw new ApiError("forbidden", `Your role in "${current.project}" may not change its learnings.`);
  }
  return { current, scope: { id, userId: principal.userId, projectIds } };
}

/** How the audit trail names a learning: its text, in its project or under its owner. */
export const auditSubject = (l: LearningRow, label = l.content) => ({ subject: "learning" as const, subjectId: l.id, label, projectId: l.projectId, ownerUserId: l.userId });

export async function editLearning(db: Db, principal: Principal, id: string, input: unknown): Promise<LearningRow> {
  const { pinned, superseded, flagged, files: givenFiles, ...patch } = parseWithheld(learningPatchSchema, input);
  const { current, scope } = await writableScope(db, principal, id);
  const contentChanged = patch.content !== undefined && patch.content !== current.content;
  // New text names its files anew (with its proposal's evidence); files given by hand win.
  const files = givenFiles ?? (contentChanged ? learningFiles(patch.content!, await evidenceOf(db, principal, current)) : undefined);
  const confirmedAt = patch.confirmed === undefined || patch.confirmed === current.confirmed ? undefined : patch.confirmed ? new Date() : null;
  const fields = [...Object.keys(patch).filter((k) => patch[k as keyof typeof patch] !== undefined), ...(givenFiles ? ["files"] : [])];
  // Changing its text or its files answers a flag, as clearing it does.
  const unflag = current.flaggedAt && (flagged === false || contentChanged || givenFiles);
  const subject = auditSubject(current, patch.content ?? current.content);
  await db.transaction(async (tx) => {
    await updateLearning(tx, {
      ...scope,
      patch: {
        ...patch,
        ...(confirmedAt !== undefined ? { confirmedAt } : {}),
        ...(pinned !== undefined ? { pinned } : {}),
        ...(superseded === false ? { supersededAt: null, supersededBy: null } : {}),
        ...(contentChanged ? { editedBy: principal.userId, editedAt: new Date() } : {}),
        ...(files ? { files } : {}),
        ...(unflag ? { flaggedAt: null, flagReason: null, flagFile: null, flagSessionId: null } : {}),
      },
    });
    if (unflag) await recordAudit(tx, principal.userId, { action: "edit", ...subject, detail: `flag cleared (${flagText(current)})` });
    if (fields.length) await recordAudit(tx, principal.userId, { action: "edit", ...subject, detail: `changed ${fields.join(", ")}` });
    if (pinned !== undefined && pinned !== current.pinned) await recordAudit(tx, principal.userId, { action: "pin", ...subject, detail: pinned ? "pinned" : "unpinned" });
    if (superseded === false && current.supersededAt) await recordAudit(tx, principal.userId, { action: "supersede", ...subject, detail: "no longer superseded" });
  });
  return getLearning(db, principal, id);
}

/** The evidence of the proposal a learning was accepted from (none for a typed or imported one). */
async function evidenceOf(db: Db, principal: Principal, l: LearningRow) {
  if (!l.proposalId) return null;
  const proposal = await findProposal(db, { id: l.proposalId, userId: principal.userId, projectIds: await projectIdsFor(db, principal, "read") });
  return proposal?.evidence ?? null;
}

export async function removeLearning(db: Db, principal: Principal, id: string): Promise<void> {
  const { current, scope } = await writableScope(db, principal, id);
  await db.transaction(async (tx) => {
    if (await deleteLearning(tx, scope)) await recordAudit(tx, principal.userId, { action: "delete", ...auditSubject(current) });
  });
}
