import type { Db } from "../db/client";
import { recordServedBatch } from "../db/queries/context";

type Entry = Parameters<typeof recordServedBatch>[1][number];

// Served-context bookkeeping (the log and last-injected times) is buffered and written once a second
// in one transaction: a busy server then does one write a second instead of two per request. What is
// buffered when the process is killed is lost; it is bookkeeping, never read into a context.
const FLUSH_MS = 1000;
const MAX_BUFFER = 1000;

const state = globalThis as unknown as { __batonServed?: { entries: Entry[]; timer: ReturnType<typeof setTimeout> | null } };
state.__batonServed ??= { entries: [], timer: null };
const buffer = state.__batonServed;

async function flush(db: Db): Promise<void> {
  buffer.timer = null;
  const entries = buffer.entries.splice(0, buffer.entries.length);
  try {
    await recordServedBatch(db, entries);
  } catch (error) {
    console.error("baton: could not record served contexts", error);
  }
}

export function recordServed(db: Db, entry: Entry): void {
  buffer.entries.push(entry);
  if (buffer.entries.length >= MAX_BUFFER) void flush(db);
  else if (!buffer.timer) {
    buffer.timer = setTimeout(() => void flush(db), FLUSH_MS);
    buffer.timer.unref?.();
  }
}
