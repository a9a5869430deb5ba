import type { ContextMark, SessionActivity } from "../../db/queries/context-marks";
import { BoundedCache } from "../../process/bounded-cache";
import { KEEP_MS, MAX_SESSIONS } from "../cache/recent-sessions";
import { processWide } from "../../process/process-state";

/** The mark after one session's activity: lib/db/queries/context-marks.ts sessionMarksWrite's rule. */
export function advance(mark: ContextMark, activity: Omit<SessionActivity, "userId">): ContextMark {
  if (mark.lastSessionAt && activity.at < mark.lastSessionAt) return mark;
  const same = activity.sessionId !== null && activity.sessionId === mark.lastSessionId;
  return { ...mark, lastSessionId: activity.sessionId, lastSessionAt: activity.at, previousSessionAt: same ? mark.previousSessionAt : mark.lastSessionAt };
}

/**
 * When the user's last session was, seen from the session asking (`sessionId`): the last one, or the
 * one before it when the last one is the asking session itself (its context after a compaction or a
 * resume must not call itself the last session).
 */
export function lastSessionSeenFrom(mark: ContextMark, sessionId: string | undefined): Date | null {
  return sessionId !== undefined && sessionId === mark.lastSessionId ? mark.previousSessionAt : mark.lastSessionAt;
}

// What this instance recorded lately, until the table surely has it: the bookkeeping is buffered for
// up to a second (lib/context/serve/served-log.ts), and an embedded replica reads it after its next sync.
/** Enough to fold what the table has not caught up with: a few seconds' session starts. */
const MAX_REMEMBERED = 8;
type Recent = { sessions: Omit<SessionActivity, "userId">[]; setupNoteAt: Date | null; at: number };
const recent = processWide("recent context marks", () => new BoundedCache<string, Recent>(MAX_SESSIONS));

function remembered(userId: string, now: number): Recent {
  const entry = recent.get(userId);
  return entry && now - entry.at <= KEEP_MS ? entry : { sessions: [], setupNoteAt: null, at: now };
}

export function rememberSession(activity: SessionActivity, now = Date.now()): void {
  const entry = remembered(activity.userId, now);
  recent.set(activity.userId, { ...entry, sessions: [...entry.sessions, { sessionId: activity.sessionId, at: activity.at }].slice(-MAX_REMEMBERED), at: now });
}

export function rememberSetupNote(userId: string, at: Date, now = Date.now()): void {
  const entry = remembered(userId, now);
  recent.set(userId, { ...entry, setupNoteAt: entry.setupNoteAt ?? at, at: now });
}

/** The stored mark with what this instance recorded since (the rule is idempotent: a write already stored changes nothing). */
export function withRecent(userId: string, stored: ContextMark, now = Date.now()): ContextMark {
  const entry = remembered(userId, now);
  const mark = entry.sessions.filter((s) => !stored.lastSessionAt || s.at > stored.lastSessionAt).reduce(advance, stored);
  return { ...mark, setupNoteAt: stored.setupNoteAt ?? entry.setupNoteAt };
}
