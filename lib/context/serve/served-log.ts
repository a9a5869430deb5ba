import type { Db } from "../../db/client";
import { recordServedBatch } from "../../db/queries/context";
import { processWide } from "../../process/process-state";
import { writeBehind } from "../../process/write-behind";
import type { MemberProject } from "../../db/queries/projects";
import { rememberServed, rememberStart } from "../cache/recent-sessions";
import { rememberSession, rememberSetupNote } from "../gather/marks";

/** `chosen`: a session start's project as chosen, remembered here until the table has it. */
type Entry = Parameters<typeof recordServedBatch>[1][number] & { chosen?: MemberProject | null };

// Served-context bookkeeping (the log and last-injected times) is written behind, once a second in one
// transaction: never read into a context, so a kill losing a second of it is fine.
const FLUSH_MS = 1000;
const MAX_BUFFER = 1000;

/** The buffer, made on first use with the process's one database handle (lib/db/client.ts getDb). */
const bookkeeping = (db: Db) =>
  processWide("served-context bookkeeping", () =>
    writeBehind<Entry>({ name: "served-context bookkeeping", flushEvery: FLUSH_MS, maxItems: MAX_BUFFER, write: (entries) => recordServedBatch(db, entries) }),
  );

export function recordServed(db: Db, entry: Entry): void {
  // The prompt stage reads what a session was given before it is written (and, on a replica, synced back).
  if (entry.sessionId && entry.served !== false) rememberServed(entry.userId, entry.sessionId, entry.learningIds, entry.at.getTime(), entry.source === "compact");
  if (entry.sessionId && entry.startsSession) rememberStart(entry.userId, entry.sessionId, entry.chosen ?? null, entry.at.getTime(), entry.terms);
  if (entry.sessionId && entry.startsSession) rememberSession({ userId: entry.userId, sessionId: entry.sessionId, at: entry.at });
  if (entry.setupNote) rememberSetupNote(entry.userId, entry.at);
  bookkeeping(db).add(entry);
}
