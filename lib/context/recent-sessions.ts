/**
 * What this instance gave each host session lately, for the prompt stage, until the session_served
 * table surely has it: the bookkeeping is buffered for up to a second, then written, and an embedded
 * replica reads its own bookkeeping only after its next sync (DATABASE_SYNC_INTERVAL, 2 s by default).
 * A minute covers all of that with room to spare; the table answers after it.
 */
export const KEEP_MS = 60_000;
/** Bounds the memory on a busy instance: the oldest sessions are forgotten first (the table has them). */
export const MAX_SESSIONS = 5_000;

type Remembered = { ids: Set<string>; at: number };
const holder = globalThis as unknown as { __batonRecentSessions?: Map<string, Remembered> };
holder.__batonRecentSessions ??= new Map();
const sessions = holder.__batonRecentSessions;

const keyOf = (userId: string, sessionId: string) => `${userId}\u0000${sessionId}`;

/** Forgets, oldest first, what is past KEEP_MS or over MAX_SESSIONS (the map keeps the order of last use). */
function prune(now: number): void {
  for (const [key, remembered] of sessions) {
    if (sessions.size <= MAX_SESSIONS && now - remembered.at <= KEEP_MS) break;
    sessions.delete(key);
  }
}

/** `afresh`: after a compaction the session has only what it is given now (as sessionServedWrites keeps it). */
export function rememberServed(userId: string, sessionId: string, learningIds: string[], now = Date.now(), afresh = false): void {
  const key = keyOf(userId, sessionId);
  const ids = (!afresh && sessions.get(key)?.ids) || new Set<string>();
  for (const id of learningIds) ids.add(id);
  sessions.delete(key);
  sessions.set(key, { ids, at: now });
  prune(now);
}

export function recentlyServed(userId: string, sessionId: string, now = Date.now()): string[] {
  const remembered = sessions.get(keyOf(userId, sessionId));
  return remembered && now - remembered.at <= KEEP_MS ? [...remembered.ids] : [];
}
