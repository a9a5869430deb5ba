import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { cacheDirIfAny } from "./hook-log";

/** A marker left by a hook that was killed is let go after this long. */
const STALE_MS = 10 * 60_000;

/**
 * Whether this process is the only Baton hook answering this event with this input. Baton's hooks can
 * be set up twice for one agent (the Claude Code plugin and `baton install claude`; a user and a
 * repository scope whose commands differ), and the agent then runs both at once on the same input:
 * each would ask the server, and the session would get the same context twice (twice the tokens) or
 * two checkpoints. The first to start claims a marker named for the event, agent, folder and input,
 * holding its pid until it exits; another that finds the marker held by a live process has nothing to
 * do. An agent sends one input again only after the hook answered (its next event), so a hook run again
 * is never taken for a duplicate. Without a cache folder, or when the marker cannot be made, the hook runs.
 */
export function firstToAnswer(event: string, agent: string, input: unknown): boolean {
  const cache = cacheDirIfAny();
  if (!cache) return true;
  const dir = path.join(cache, "running");
  try {
    // The same agent in the same folder with the same input: an input without a session id (empty) is
    // the same for every session, and another agent's or folder's is another session.
    const key = JSON.stringify([event, agent, process.cwd(), input]);
    const marker = path.join(dir, `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.pid`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!claim(marker)) {
      const holder = Number(readFileSync(marker, "utf8"));
      if (holder !== process.pid && alive(holder) && Date.now() - statSync(marker).mtimeMs < STALE_MS) return false;
      writeFileSync(marker, String(process.pid), { mode: 0o600 });
    }
    process.on("exit", () => letGo(marker));
    pruneStale(dir);
  } catch {
    // a full disk or a read-only cache must not stop a hook
  }
  return true;
}

function claim(marker: string): boolean {
  try {
    writeFileSync(marker, String(process.pid), { flag: "wx", mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's process.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The marker goes with the process that holds it (not one a later hook has taken over). */
function letGo(marker: string): void {
  try {
    if (Number(readFileSync(marker, "utf8")) === process.pid) unlinkSync(marker);
  } catch {
    // gone already
  }
}

function pruneStale(dir: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    try {
      if (now - statSync(path.join(dir, name)).mtimeMs > STALE_MS) unlinkSync(path.join(dir, name));
    } catch {
      // another hook pruned it
    }
  }
}
