import { z } from "zod";
import { ApiError } from "../api/errors";
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { readAll } from "../db/queries/batch-reads";
import { flagLearnings, learningsByIds, namedFileLearnings, recordVerdicts, usageOf, type CheckedLearning, type Usage } from "../db/queries/learning-usage";

export { usageOf, type Usage };
import { servedRead, sessionProjectRead } from "../db/queries/session-served";
import { recentlyServed, startedIn } from "../context/cache/recent-sessions";
import { utcDay } from "../context/pack/relative-time";
import { listProjects } from "../projects/projects";
import { FLAG_REASONS, MAX_NAMED_LEARNINGS_CHECKED, TOUCH_HOWS, type FlagReason } from "../rules";

// Used or not, and flags (issue 27), as the server sees them: the session-end worker asks which
// learnings its session was given and which of its project's learnings name files, decides on the
// developer's machine, and sends back verdicts only. Never on the start or prompt path.

const sessionIdSchema = z.string().trim().min(1).max(200);
export const usageQuerySchema = z.object({ sessionId: sessionIdSchema });

/** The most verdicts or flags one report may carry: a session is given a few hundred learnings at most. */
const MAX_REPORTED = 1000;

export const usageReportSchema = z.strictObject({
  sessionId: sessionIdSchema,
  verdicts: z
    .array(z.strictObject({ id: z.string().min(1).max(100), touched: z.boolean(), how: z.enum(TOUCH_HOWS).nullable().default(null) }))
    .max(MAX_REPORTED)
    .default([]),
  flags: z
    .array(z.strictObject({ id: z.string().min(1).max(100), reason: z.enum(FLAG_REASONS), file: z.string().min(1).max(300) }))
    .max(MAX_REPORTED)
    .default([]),
});

/** What the worker checks: the learnings the session was given (text and files), and the project's that name files. */
export type SessionLearnings = { given: CheckedLearning[]; named: { id: string; files: string[] }[] };

/** The session's learnings and which of them this user may flag (their own, or a project's they may write to). */
type Checked = SessionLearnings & { flaggable: Set<string> };

/**
 * The session's learnings, as this user may see them now. A session this user never started here (no
 * record of its start, nothing given) is a 404, whoever else's it may be.
 */
async function sessionLearnings(db: Db, principal: Principal, sessionId: string): Promise<Checked> {
  const key = { userId: principal.userId, sessionId };
  const r = await readAll(db, { served: servedRead(db, key), session: sessionProjectRead(db, key) });
  const ids = new Set([...r.served, ...recentlyServed(principal.userId, sessionId)]);
  const started = startedIn(principal.userId, sessionId) ?? r.session;
  if (!started && !ids.size) throw new ApiError("not_found", "No such session of yours.");
  const memberships = await listProjects(db, principal);
  const projectIds = memberships.map((p) => p.id);
  const writable = new Set(memberships.filter((p) => p.role !== "viewer").map((p) => p.id));
  // A flag changes the project's learning for everyone: a viewer's session is not asked to check files.
  const project = started?.project && writable.has(started.project.id) ? started.project : null;
  const [given, named] = await Promise.all([
    learningsByIds(db, { userId: principal.userId, projectIds, ids: [...ids] }),
    project ? namedFileLearnings(db, { projectId: project.id, limit: MAX_NAMED_LEARNINGS_CHECKED }) : [],
  ]);
  const mayFlag = (l: { projectId: string | null }) => l.projectId === null || writable.has(l.projectId);
  const flaggable = new Set([...given.filter(mayFlag).map((l) => l.id), ...named.map((l) => l.id)]);
  return { given: given.map(({ id, content, files }) => ({ id, content, files })), named, flaggable };
}

export async function getSessionLearnings(db: Db, principal: Principal, query: unknown): Promise<SessionLearnings> {
  const { sessionId } = usageQuerySchema.parse(query);
  const { given, named } = await sessionLearnings(db, principal, sessionId);
  return { given, named };
}

/**
 * Records a session's report: a verdict only for a learning the session was given, a flag only for a
 * learning it was sent to check, that this user may change (a viewer flags none of a project's), and a
 * file that learning names; the rest is counted as ignored. A
 * session reported twice counts once.
 */
export async function reportSessionUsage(db: Db, principal: Principal, input: unknown, now = new Date()) {
  const report = usageReportSchema.parse(input);
  const { given, named, flaggable } = await sessionLearnings(db, principal, report.sessionId);
  const givenIds = new Set(given.map((l) => l.id));
  const filesOf = new Map([...given, ...named].map((l) => [l.id, new Set(l.files)]));
  const verdicts = report.verdicts.filter((v) => givenIds.has(v.id));
  const flags = report.flags.filter((f) => flaggable.has(f.id) && filesOf.get(f.id)?.has(f.file));
  const recorded = await recordVerdicts(db, { userId: principal.userId, sessionId: report.sessionId, verdicts, at: now });
  const flagged = await flagLearnings(db, { sessionId: report.sessionId, flags, at: now });
  return { recorded, flagged: flagged.length, ignored: report.verdicts.length - verdicts.length + report.flags.length - flags.length };
}

const REASON_TEXT: Record<FlagReason, string> = { deleted: "was deleted", rewritten: "was mostly rewritten", missing: "no longer exists in the repository" };

type Flagged = { flaggedAt: Date | null; flagReason: FlagReason | null; flagFile: string | null; flagSessionId: string | null };

/** A learning's flag as the API gives it out, or null. */
export function flagOf(l: Flagged) {
  return l.flaggedAt && l.flagReason ? { at: l.flaggedAt, reason: l.flagReason, file: l.flagFile, session: l.flagSessionId } : null;
}

/** "src/x.ts was deleted in a session on 2026-11-26", as the card and the audit trail say it. */
export function flagText(l: Flagged): string {
  if (!l.flaggedAt || !l.flagReason) return "not flagged";
  return `${l.flagFile ?? "a file it names"} ${REASON_TEXT[l.flagReason]}${l.flagReason === "missing" ? ", seen" : ""} in a session on ${utcDay(l.flaggedAt)}`;
}

const DAY_MS = 24 * 3600 * 1000;

function ago(at: Date, now: Date): string {
  const days = Math.floor((now.getTime() - at.getTime()) / DAY_MS);
  return days <= 0 ? "today" : days === 1 ? "yesterday" : `${days} days ago`;
}

/** "given in 12 sessions, touched in 5, last 3 days ago", or "never given yet". Not a ranking signal. */
export function usageText(u: Usage | undefined, now = new Date()): string {
  if (!u || !u.given) return "never given yet";
  const sessions = `given in ${u.given} session${u.given === 1 ? "" : "s"}`;
  if (!u.touched) return `${sessions}, never touched`;
  return `${sessions}, touched in ${u.touched}${u.lastTouchedAt ? `, last ${ago(u.lastTouchedAt, now)}` : ""}`;
}
