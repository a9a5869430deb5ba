import type { MemberProject } from "../../db/queries/projects";
import { NO_TOPIC, type SessionStart, type SessionTopic } from "../../db/queries/session-served";
import { BoundedCache } from "../../process/bounded-cache";
import { FEEDBACK_TERMS, selectTerms } from "../hints/hint-query";
import { processWide } from "../../process/process-state";

/**
 * What this instance gave each host session lately, for the prompt stage, until the session_served
 * table surely has it: the bookkeeping is buffered for up to a second, then written, and an embedded
 * replica reads its own bookkeeping only after its next sync (DATABASE_SYNC_INTERVAL, 2 s by default).
 * A minute covers all of that with room to spare; the table answers after it.
 */
export const KEEP_MS = 60_000;
/** Bounds the memory on a busy instance: the least recently served sessions are forgotten first (the table has them). */
export const MAX_SESSIONS = 5_000;

/** `compactedAt`: when this instance served the session's context after a compaction (see rememberServed). */
type Remembered = { ids: Set<string>; at: number; compactedAt: number | null };
const sessions = processWide("recently served sessions", () => new BoundedCache<string, Remembered>(MAX_SESSIONS));

const keyOf = (userId: string, sessionId: string) => `${userId}\u0000${sessionId}`;

/** What a session was given within KEEP_MS of `now`; older, the table has it. */
function remembered(key: string, now: number): Remembered | undefined {
  const entry = sessions.get(key);
  return entry && now - entry.at <= KEEP_MS ? entry : undefined;
}

/** `afresh`: after a compaction the session has only what it is given now (as sessionServedWrites keeps it). */
export function rememberServed(userId: string, sessionId: string, learningIds: string[], now = Date.now(), afresh = false): void {
  const key = keyOf(userId, sessionId);
  const before = afresh ? undefined : remembered(key, now);
  const ids = before?.ids ?? new Set<string>();
  for (const id of learningIds) ids.add(id);
  sessions.set(key, { ids, at: now, compactedAt: afresh ? now : (before?.compactedAt ?? null) });
}

/**
 * When this instance served the session's compact context, within KEEP_MS: rows the table holds from
 * before it are what the agent lost, though the bookkeeping that forgets them may not be written yet.
 */
export function compactedSince(userId: string, sessionId: string, now = Date.now()): Date | null {
  const at = remembered(keyOf(userId, sessionId), now)?.compactedAt;
  return at == null ? null : new Date(at);
}

export function recentlyServed(userId: string, sessionId: string, now = Date.now()): string[] {
  const entry = remembered(keyOf(userId, sessionId), now);
  return entry ? [...entry.ids] : [];
}

/** The project a session's start was served for here (null: personal) and its search words, until session_projects surely has them. */
type Started = SessionStart & { at: number };
const starts = processWide("recent session starts", () => new BoundedCache<string, Started>(MAX_SESSIONS));

export function rememberStart(userId: string, sessionId: string, project: MemberProject | null, now = Date.now(), terms: SessionTopic = NO_TOPIC): void {
  starts.set(keyOf(userId, sessionId), { project, terms, at: now });
}

/** The project the session started in here, and its start's words, within KEEP_MS of `now`; undefined: ask the table. */
export function startedIn(userId: string, sessionId: string, now = Date.now()): SessionStart | undefined {
  const entry = starts.get(keyOf(userId, sessionId));
  return entry && now - entry.at <= KEEP_MS ? { project: entry.project, terms: entry.terms } : undefined;
}

/**
 * What a session is about, as its start told the server: the hint words its start searched for and
 * the words its best matches' tags added (selectTerms' choice of each, by the frequencies its reads
 * counted; a word whose frequency is unknown is left out), at most SESSION_TERMS together (the tags'
 * at most FEEDBACK_TERMS), recorded with the session's project (session_projects).
 */
export const SESSION_TERMS = 24;

export function sessionTerms(hints: string[], tags: string[], frequencyOf: (word: string) => number | undefined, storeSize: number | null): SessionTopic {
  if (storeSize === null) return NO_TOPIC;
  const chosen = (words: string[]) => {
    const known = new Map<string, number>();
    for (const w of words) {
      const n = frequencyOf(w);
      if (n !== undefined) known.set(w, n);
    }
    return selectTerms([...known.keys()], known, storeSize);
  };
  const related = chosen(tags).slice(0, FEEDBACK_TERMS);
  return { words: chosen(hints).slice(0, SESSION_TERMS - related.length), related };
}
