import type { Db } from "../db/client";
import { recordServedBatch } from "../db/queries/context";
import { onShutdown } from "../shutdown/on-shutdown";
import type { MemberProject } from "../db/queries/projects";
import { rememberServed, rememberStart } from "./recent-sessions";
import { rememberSession, rememberSetupNote } from "./context-marks";

/** `chosen`: a session start's project as chosen, remembered here until the table has it. */
type Entry = Parameters<typeof recordServedBatch>[1][number] & { chosen?: MemberProject | null };

// Served-context bookkeeping (the log and last-injected times) is buffered and written once a second
// in one transaction: a busy server then does one write a second instead of two per request. A graceful
// stop (SIGTERM) writes what is buffered; a kill loses it, which is fine for bookkeeping that is never
// read into a context.
const FLUSH_MS = 1000;
const MAX_BUFFER = 1000;

type Buffer = { entries: Entry[]; timer: ReturnType<typeof setTimeout> | null; writing: Promise<void> };
const state = globalThis as unknown as { __batonServed?: Buffer };
state.__batonServed ??= { entries: [], timer: null, writing: Promise.resolve() };
const buffer = state.__batonServed;

/** Writes what is buffered, after any write under way: shutdown's flush then ends after the timer's. */
function flush(db: Db): Promise<void> {
  if (buffer.timer) clearTimeout(buffer.timer);
  buffer.timer = null;
  const entries = buffer.entries.splice(0, buffer.entries.length);
  buffer.writing = buffer.writing.then(async () => {
    try {
      await recordServedBatch(db, entries);
    } catch (error) {
      console.error("baton: could not record served contexts", error);
    }
  });
  return buffer.writing;
}

export function recordServed(db: Db, entry: Entry): void {
  // The prompt stage reads what a session was given before it is written (and, on a replica, synced back).
  if (entry.sessionId && entry.served !== false) rememberServed(entry.userId, entry.sessionId, entry.learningIds, entry.at.getTime(), entry.source === "compact");
  if (entry.sessionId && entry.startsSession) rememberStart(entry.userId, entry.sessionId, entry.chosen ?? null, entry.at.getTime());
  if (entry.sessionId && entry.startsSession) rememberSession({ userId: entry.userId, sessionId: entry.sessionId, at: entry.at });
  if (entry.setupNote) rememberSetupNote(entry.userId, entry.at);
  buffer.entries.push(entry);
  if (buffer.entries.length >= MAX_BUFFER) void flush(db);
  else if (!buffer.timer) {
    buffer.timer = setTimeout(() => void flush(db), FLUSH_MS);
    buffer.timer.unref?.();
    onShutdown("served-context bookkeeping", () => flush(db));
  }
}
