import { existsSync } from "node:fs";
import path from "node:path";
import { deriveProject } from "../config/derive-project";
import { gitHints, type GitHints } from "../config/git-info";
import { loadConfig } from "../config/load-config";
import { apiClient, errorMessage, Unreachable, type ApiResponse } from "../http/api-client";
import { parseHookInput, readStdin, stringField } from "./hook-input";
import { hookLog } from "./hook-log";
import { flushSpool, pendingSpool } from "./spool";

// The hot path: runs before every agent session. Node built-ins and fetch only (see cli/build.mjs
// and test/unit/cli-hook-imports.test.ts), one request in the common case, and a watchdog that
// answers at the time limit whatever is still pending.

const SOURCES = new Set(["startup", "resume", "clear", "compact", "fork"]);
const TASK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const MAX_HINT = 2000;

/** The hook's answer to Claude Code: `context` becomes the session's additional context. */
export function hookOutput(context: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context } }) + "\n";
}

let answered = false;

/** Prints once and exits 0: nothing after the first answer may write or keep the agent waiting. */
function answer(body: string): void {
  if (answered) return;
  answered = true;
  // Claude Code gone (a closed pipe) is no reason to fail either.
  process.stdout.on("error", () => process.exit(0));
  process.stdout.write(body, () => process.exit(0));
}

const unavailable = (why: string) => answer(hookOutput(`Baton: context unavailable (${why}).`));

export async function runSessionStart(): Promise<void> {
  const startedAt = Date.now();
  const early = loadConfig(process.cwd());
  const timeoutMs = early.timeoutMs;
  setTimeout(() => {
    hookLog(`session-start: no answer within ${timeoutMs} ms`);
    unavailable(early.url ? `no answer from ${early.url} within ${timeoutMs} ms` : `gave up after ${timeoutMs} ms`);
  }, timeoutMs);
  // Leave time to print before the watchdog fires.
  const deadline = startedAt + timeoutMs - 30;

  const parsed = parseHookInput(await readStdin(Math.min(1000, timeoutMs * 0.4)));
  if (!parsed.ok) {
    hookLog(`session-start: ${parsed.problem}`);
    return unavailable(parsed.problem);
  }
  const input = parsed.input;
  const inputCwd = stringField(input.cwd, 4096);
  const cwd = inputCwd && path.isAbsolute(inputCwd) && existsSync(inputCwd) ? inputCwd : process.cwd();
  const config = cwd === process.cwd() ? early : loadConfig(cwd);
  if (!config.url) return unavailable("no server configured: set BATON_URL and BATON_TOKEN, or url and token in ~/.config/baton/config.json");
  if (!config.token) return unavailable(`no token for ${config.url}: set BATON_TOKEN, or token in ~/.config/baton/config.json`);

  const hints: GitHints = config.repoRoot
    ? await gitHints(cwd, Math.max(100, Math.min(800, (deadline - Date.now()) / 2)))
    : { branch: null, remote: null, subjects: [] };
  const call = apiClient({ url: config.url, token: config.token, timeoutMs });

  // What earlier hooks could not deliver goes first, within half the time at most.
  if (pendingSpool().length) {
    const flushed = await flushSpool(call, Math.min(deadline - 200, startedAt + timeoutMs / 2));
    if (flushed.sent || flushed.dropped || flushed.stoppedBy) hookLog(`session-start: spool sent ${flushed.sent}, dropped ${flushed.dropped}, kept ${flushed.kept}${flushed.stoppedBy ? ` (stopped: ${flushed.stoppedBy})` : ""}`);
  }

  const project = deriveProject({ configured: config.project, remote: hints.remote, repoRoot: config.repoRoot, cwd });
  const params = new URLSearchParams({ format: "claude" });
  const setHint = (key: string, value: string | null | undefined) => {
    if (value && value.length <= MAX_HINT) params.set(key, value);
  };
  const source = stringField(input.source, 20);
  if (source && SOURCES.has(source)) params.set("source", source);
  setHint("sessionId", stringField(input.session_id, 200));
  setHint("cwd", cwd);
  setHint("branch", hints.branch);
  setHint("remote", hints.remote);
  setHint("q", hints.subjects.slice(0, 3).join(" · ").slice(0, MAX_HINT));
  if (config.task && TASK_ID.test(config.task)) params.set("task", config.task);

  try {
    let res: ApiResponse;
    if (project) {
      res = await call("GET", `/api/context?project=${encodeURIComponent(project.slug)}&${params}`, undefined, { timeoutMs: deadline - Date.now() });
      // A project guessed from the remote or the directory may not exist on the server: let the
      // server resolve it from cwd and remote (its matchers), or serve the personal context.
      if ((res.status === 404 || res.status === 403) && project.from !== "config") {
        res = await call("GET", `/api/context?${params}`, undefined, { timeoutMs: deadline - Date.now() });
      }
    } else {
      res = await call("GET", `/api/context?${params}`, undefined, { timeoutMs: deadline - Date.now() });
    }
    if (res.status === 200) {
      const context = (res.json as { hookSpecificOutput?: { additionalContext?: unknown } } | undefined)?.hookSpecificOutput?.additionalContext;
      if (typeof context === "string") return answer(res.text.endsWith("\n") ? res.text : res.text + "\n");
      hookLog(`session-start: unexpected answer from ${config.url}: ${res.text.slice(0, 200)}`);
      return unavailable(`unexpected answer from ${config.url}`);
    }
    const message = errorMessage(res).slice(0, 160);
    hookLog(`session-start: ${res.status} ${message}`);
    if (res.status === 401) return unavailable(`token refused by ${config.url}: 401`);
    return unavailable(`${config.url} answered ${res.status}: ${message}`);
  } catch (error) {
    if (error instanceof Unreachable) {
      hookLog(`session-start: ${error.message}`);
      return unavailable(error.reason === "timeout" ? `no answer from ${config.url} within ${timeoutMs} ms` : `server not reachable at ${config.url}`);
    }
    hookLog(`session-start: ${(error as Error).stack ?? String(error)}`);
    return unavailable(`error: ${(error as Error).message}`.slice(0, 200));
  }
}
