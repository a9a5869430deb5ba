import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { AGENTS } from "../agents/agents";
import type { AgentName } from "../../../lib/rules";
import { readHookInput } from "./hook-input";
import { cacheDirIfAny, hookLog } from "./hook-log";
import { safeCwd } from "./safe-cwd";
import { salvageIds } from "./salvage-ids";
import { writeWhole } from "../output/write-whole";

/**
 * `baton hook session-end` (and `baton hook stop`, the end of a turn): Claude Code gives all SessionEnd
 * hooks 1.5 s together and other agents do not wait at all, so this only writes the hook input to a job file and starts a detached worker
 * (`baton hook session-end-worker <job>`) that does the slow part, then exits 0 at once. It prints
 * nothing: for a Stop hook, silence and exit 0 mean "let the agent stop".
 */
export async function runSessionEnd(event: "SessionEnd" | "Stop", agent: AgentName): Promise<void> {
  try {
    const parsed = await readHookInput(500);
    // An input too large (a huge last message) still ends the session: its ids are enough, the transcript says the rest.
    const input = parsed.ok ? parsed.input : parsed.cut && salvageIds(parsed.cut);
    if (!parsed.ok) hookLog(`session-end: ${parsed.problem}; ${input ? `ending the session from its ids (${Object.keys(input).join(", ")})` : "nothing to do"}`);
    if (!input) return;
    // The session's folder, or one that exists: a removed worktree's session still ends (safeCwd).
    const cwd = safeCwd((await AGENTS[agent].hook()).facts(input).cwd);
    const job = writeJob(jobText({ event, agent, cwd }, input));
    const child = spawn(process.execPath, [process.argv[1]!, "hook", "session-end-worker", job], {
      detached: true,
      stdio: "ignore",
      cwd,
      env: process.env,
      windowsHide: true,
    });
    child.on("error", (error) => hookLog(`session-end: could not start the worker: ${error.message}`));
    child.unref();
  } catch (error) {
    hookLog(`session-end: ${(error as Error).stack ?? String(error)}`);
  }
}

/**
 * The job waits in the cache; without a home folder (config/home.ts), or where the cache cannot be
 * written (a read-only home, XDG_CACHE_HOME naming a file), in a private temporary folder: a session
 * configured from the environment still posts its handoff.
 */
function writeJob(text: string): string {
  const name = `${Date.now()}-${process.pid}-${randomBytes(4).toString("hex")}.json`;
  const cache = cacheDirIfAny();
  if (cache) {
    try {
      const dir = path.join(cache, "jobs");
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      return writeWhole(path.join(dir, name), text, { mode: 0o600 });
    } catch (error) {
      hookLog(`session-end: cannot write the job in ${cache} (${(error as Error).message}); writing it in a temporary folder`);
    }
  }
  return writeWhole(path.join(mkdtempSync(path.join(tmpdir(), "baton-job-")), name), text, { mode: 0o600 });
}

/**
 * The job as JSON. An input JSON.parse read but JSON.stringify cannot write (nested a hundred thousand
 * deep: the stack runs out) keeps the fields that can be written: the session's ids and paths are.
 */
function jobText(job: Record<string, unknown>, input: Record<string, unknown>): string {
  try {
    return JSON.stringify({ ...job, input });
  } catch {
    const writable = Object.entries(input).filter(([, value]) => {
      try {
        JSON.stringify(value);
        return true;
      } catch {
        return false;
      }
    });
    hookLog(`session-end: left out of the job what cannot be written as JSON (${Object.keys(input).filter((k) => !writable.some(([w]) => w === k)).join(", ")})`);
    return JSON.stringify({ ...job, input: Object.fromEntries(writable) });
  }
}
