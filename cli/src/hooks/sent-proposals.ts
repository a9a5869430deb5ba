import { createHash } from "node:crypto";
import { mkdirSync, openSync, closeSync, readFileSync, readdirSync, statSync, unlinkSync } from "node:fs";
import path from "node:path";
import { cacheDir, cacheDirIfAny } from "./hook-log";
import { writeWhole } from "../output/write-whole";

/**
 * Which learning candidates of a session were already sent (or spooled): a Stop hook runs after
 * every turn, and sending the same statement again would raise its confidence on the server as if
 * it had been seen twice. Kept per session under `<cache>/sent/`, for 30 days.
 */
const KEEP_MS = 30 * 86_400_000;

function dir(): string {
  return path.join(cacheDir(), "sent");
}

function fileFor(sessionId: string): string {
  return path.join(dir(), `${createHash("sha256").update(sessionId).digest("hex").slice(0, 32)}.json`);
}

export function readSent(sessionId: string): Set<string> {
  try {
    const list = JSON.parse(readFileSync(fileFor(sessionId), "utf8")) as unknown;
    return new Set(Array.isArray(list) ? list.map(String) : []);
  } catch {
    return new Set();
  }
}

export function writeSent(sessionId: string, keys: Set<string>): void {
  if (!cacheDirIfAny()) return; // no home folder: nothing is kept (config/home.ts)
  try {
    writeWhole(fileFor(sessionId), JSON.stringify([...keys]), { mode: 0o600, dirMode: 0o700 });
  } catch {
    return; // a cache that cannot be written (read-only home, XDG_CACHE_HOME a file): nothing is kept
  }
  pruneOld();
}

function pruneOld(): void {
  try {
    for (const name of readdirSync(dir())) {
      const file = path.join(dir(), name);
      if (Date.now() - statSync(file).mtimeMs > KEEP_MS) unlinkSync(file);
    }
  } catch {
    // best effort
  }
}

/**
 * Runs `work` holding a per-session lock, so two workers of one session (a Stop hook, then the
 * SessionEnd hook) do not send the same candidates at once. A lock older than two minutes is stale.
 */
export async function withSessionLock<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
  // No home folder, or a cache that cannot be written: no place for a lock (nor for what was sent); the work runs alone.
  if (!cacheDirIfAny()) return work();
  try {
    mkdirSync(dir(), { recursive: true, mode: 0o700 });
  } catch {
    return work();
  }
  const lock = `${fileFor(sessionId)}.lock`;
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx", 0o600));
      break;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > 120_000) unlinkSync(lock);
      } catch {
        // released meanwhile
      }
      if (Date.now() > until) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await work();
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // already released
    }
  }
}
