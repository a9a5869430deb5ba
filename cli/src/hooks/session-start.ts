import { projectHints } from "../config/derive-project";
import { gitHints, NO_GIT_HINTS, type GitHints } from "../config/git-info";
import { loadConfig, type BatonConfig } from "../config/load-config";
import { apiClient, errorMessage, Unreachable, type ApiCall, type ApiResponse } from "../http/api-client";
import { MAX_QUERY_CHARS, MAX_SESSION_ID_CHARS, SESSION_SOURCES, TASK_ID_PATTERN } from "../../../lib/rules";
import { additionalContext, getForProject, hookText } from "./fetch-for-project";
import { answerBy, answerOnce } from "./hook-exit";
import { hookCwd, readHookInput, stringField, type HookInput } from "./hook-input";
import { hookLog } from "./hook-log";
import { unavailableOutput } from "./session-start-output";
import { importedTask } from "./session-start-task";
import { flushSpool } from "./spool";

// The hot path: runs before every agent session. Node built-ins and fetch only (see cli/build.mjs
// and test/unit/cli-hook-imports.test.ts), one request in the common case, and a watchdog that
// answers at the time limit whatever is still pending.

const SOURCES = new Set<string>(SESSION_SOURCES);
/** Leaves time to print before the watchdog fires. */
const PRINT_MS = 30;

const unavailable = (why: string) => answerOnce(unavailableOutput(why));

/** Answers "unavailable" at the time limit, whatever is still pending. */
function startWatchdog(config: BatonConfig): void {
  const { timeoutMs } = config;
  answerBy(timeoutMs, () => {
    hookLog(`session-start: no answer within ${timeoutMs} ms`);
    unavailable(config.url ? `no answer from ${config.url} within ${timeoutMs} ms` : `gave up after ${timeoutMs} ms`);
  });
}

/** The hook input on stdin, or null once the hook has answered that it is unreadable. */
async function readInput(timeoutMs: number): Promise<HookInput | null> {
  const parsed = await readHookInput(Math.min(1000, timeoutMs * 0.4));
  if (parsed.ok) return parsed.input;
  hookLog(`session-start: ${parsed.problem}`);
  unavailable(parsed.problem);
  return null;
}

/** The server's URL and token, or null once the hook has answered that one is missing. */
function configuredServer(config: BatonConfig): { url: string; token: string } | null {
  if (!config.url) {
    unavailable("no server configured: set BATON_URL and BATON_TOKEN, or url and token in ~/.config/baton/config.json");
    return null;
  }
  if (!config.token) {
    unavailable(`no token for ${config.url}: set BATON_TOKEN, or token in ~/.config/baton/config.json`);
    return null;
  }
  return { url: config.url, token: config.token };
}

/** What earlier hooks could not deliver goes first, until `deadline`. */
async function flushPending(call: ApiCall, deadline: number): Promise<void> {
  const flushed = await flushSpool(call, deadline);
  if (flushed.sent || flushed.dropped || flushed.stoppedBy) hookLog(`session-start: spool sent ${flushed.sent}, dropped ${flushed.dropped}, kept ${flushed.kept}${flushed.stoppedBy ? ` (stopped: ${flushed.stoppedBy})` : ""}`);
}

/** The context request's query: the format and mode, then every hint short enough for the server to take (the project's hints apart). */
function contextParams(input: HookInput, hints: GitHints, config: BatonConfig): URLSearchParams {
  const params = new URLSearchParams({ format: "claude", mode: config.mode });
  const setHint = (key: string, value: string | null | undefined) => {
    if (value && value.length <= MAX_QUERY_CHARS) params.set(key, value);
  };
  const source = stringField(input.source, 20);
  if (source && SOURCES.has(source)) params.set("source", source);
  setHint("sessionId", stringField(input.session_id, MAX_SESSION_ID_CHARS));
  setHint("branch", hints.branch);
  setHint("q", hints.subjects.slice(0, 3).join(" · ").slice(0, MAX_QUERY_CHARS));
  if (config.task && TASK_ID_PATTERN.test(config.task)) params.set("task", config.task);
  const imported = importedTask(config.repoRoot);
  if (imported && TASK_ID_PATTERN.test(imported)) params.set("taskImported", imported);
  return params;
}

/** The server's answer passed on as it came, or "unavailable" with the reason. */
function answerWith(res: ApiResponse, url: string): void {
  if (res.status === 200) {
    const context = additionalContext(res);
    if (context === "") {
      // The server sends an empty context only for a project whose owners paused injection.
      hookLog("session-start: nothing injected: injection is paused for this project (its settings on the server)");
      return answerOnce("");
    }
    if (typeof context === "string") return answerOnce(hookText(res));
    hookLog(`session-start: unexpected answer from ${url}: ${res.text.slice(0, 200)}`);
    return unavailable(`unexpected answer from ${url}`);
  }
  const message = errorMessage(res).slice(0, 160);
  hookLog(`session-start: ${res.status} ${message}`);
  if (res.status === 401) return unavailable(`token refused by ${url}: 401`);
  return unavailable(`${url} answered ${res.status}: ${message}`);
}

function answerFailure(error: unknown, url: string, timeoutMs: number): void {
  if (error instanceof Unreachable) {
    hookLog(`session-start: ${error.message}`);
    return unavailable(error.reason === "timeout" ? `no answer from ${url} within ${timeoutMs} ms` : `server not reachable at ${url}`);
  }
  hookLog(`session-start: ${(error as Error).stack ?? String(error)}`);
  return unavailable(`error: ${(error as Error).message}`.slice(0, 200));
}

export async function runSessionStart(): Promise<void> {
  const startedAt = Date.now();
  const early = loadConfig(process.cwd());
  const { timeoutMs } = early;
  startWatchdog(early);
  const deadline = startedAt + timeoutMs - PRINT_MS;

  const input = await readInput(timeoutMs);
  if (!input) return;
  const cwd = hookCwd(input, process.cwd());
  const config = cwd === process.cwd() ? early : loadConfig(cwd);
  if (!config.inject) {
    hookLog(`session-start: nothing injected: "inject": false in ${config.repoConfigFile}`);
    return answerOnce("");
  }
  const server = configuredServer(config);
  if (!server) return;

  const hints = config.repoRoot ? await gitHints(cwd, Math.max(100, Math.min(800, (deadline - Date.now()) / 2))) : NO_GIT_HINTS;
  const call = apiClient({ ...server, timeoutMs });
  // Within half the time at most: the context is what the session waits for.
  await flushPending(call, Math.min(deadline - 200, startedAt + timeoutMs / 2));

  // The server decides the project: the configured one, else its matchers, else the guess (SPEC §3).
  const project = projectHints({ configured: config.project, remote: hints.remote, repoRoot: config.repoRoot, cwd });
  try {
    answerWith(await getForProject(call, "/api/context", project, contextParams(input, hints, config), deadline), server.url);
  } catch (error) {
    answerFailure(error, server.url, timeoutMs);
  }
}
