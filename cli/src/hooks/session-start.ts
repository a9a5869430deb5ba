import type { HookAdapter, HookFacts } from "../agents/agent";
import { projectHints } from "../config/derive-project";
import { gitHints, NO_GIT_HINTS, type GitHints } from "../config/git-info";
import type { BatonConfig } from "../config/load-config";
import { apiClient, errorMessage, notBatonDetail, rawStart, serverMessage, Unreachable, type ApiCall, type ApiResponse } from "../http/api-client";
import { MAX_QUERY_CHARS, TASK_ID_PATTERN, type AgentName } from "../../../lib/rules";
import { additionalContext, getForProject } from "./fetch-for-project";
import { answerOnce } from "./hook-exit";
import { hookLog } from "./hook-log";
import { openHook } from "./open-hook";
import { searchHint } from "./search-hint";
import { unavailableText } from "./session-start-output";
import { importedTask } from "./session-start-task";
import { flushSpool } from "./spool";

// The hot path: runs before every agent session. Node built-ins and fetch only (see cli/build.mjs
// and test/unit/cli-hook-imports.test.ts), one request in the common case, and a watchdog that
// answers at the time limit whatever is still pending.

/** Leaves time to print before the watchdog fires. */
const PRINT_MS = 30;

/** The answer when there is no context to give, saying why, in the agent's shape. */
const unavailable = (agent: HookAdapter, why: string) => answerOnce(agent.output("session-start", unavailableText(why)));
/** The server's URL and token, or null once the hook has answered that one is missing. */
function configuredServer(agent: HookAdapter, config: BatonConfig): { url: string; token: string } | null {
  if (!config.url) {
    unavailable(agent, "no server configured: run `baton login --url <server>`, or set BATON_URL and BATON_TOKEN");
    return null;
  }
  if (!config.token) {
    // Why there is none is in hook.log, among the configuration's warnings (openHook logs them).
    unavailable(agent, `no token for ${config.url}: run \`baton login\`, or set BATON_TOKEN`);
    return null;
  }
  return { url: config.url, token: config.token };
}

/** What earlier hooks could not deliver goes first, until `deadline`. */
async function flushPending(call: ApiCall, server: string, deadline: number): Promise<void> {
  const flushed = await flushSpool(call, server, deadline);
  if (flushed.sent || flushed.dropped || flushed.stoppedBy) hookLog(`session-start: spool sent ${flushed.sent}, dropped ${flushed.dropped}, kept ${flushed.kept}${flushed.stoppedBy ? ` (stopped: ${flushed.stoppedBy})` : ""}`);
}

/**
 * The context request's query: the format and mode, then every hint short enough for the server to take
 * (the project's hints apart). Only Claude Code reads CLAUDE.local.md, so only its session is told the
 * task's memory is imported there; every other agent gets the memory itself.
 */
function contextParams(agent: AgentName, facts: HookFacts, hints: GitHints, config: BatonConfig): URLSearchParams {
  const params = new URLSearchParams({ format: "claude", mode: config.mode });
  const setHint = (key: string, value: string | null | undefined) => {
    if (value && value.length <= MAX_QUERY_CHARS) params.set(key, value);
  };
  if (facts.source) params.set("source", facts.source);
  setHint("sessionId", facts.sessionId);
  setHint("branch", hints.branch);
  // Commit subjects leave the machine as a search hint: redacted like a prompt's (searchHint).
  setHint("q", searchHint(hints.subjects.slice(0, 3).join(" · "), MAX_QUERY_CHARS));
  if (config.task && TASK_ID_PATTERN.test(config.task)) params.set("task", config.task);
  const imported = agent === "claude" ? importedTask(config.repoRoot) : null;
  if (imported && TASK_ID_PATTERN.test(imported)) params.set("taskImported", imported);
  return params;
}

/** The server's answer passed on as it came, or "unavailable" with the reason (a body that is not Baton's goes to hook.log alone). */
function answerWith(agent: HookAdapter, res: ApiResponse, url: string): void {
  if (res.status === 200) {
    const context = additionalContext(res);
    if (context === "") {
      // The server sends an empty context only for a project whose owners paused injection.
      hookLog("session-start: nothing injected: injection is paused for this project (its settings on the server)");
      return answerOnce("");
    }
    if (typeof context === "string") return answerOnce(agent.output("session-start", context));
    hookLog(`session-start: ${url} did not answer as a Baton server: ${notBatonDetail(res)}${rawStart(res)}`);
    return unavailable(agent, `${url} did not answer as a Baton server: see hook.log`);
  }
  const message = serverMessage(res)?.slice(0, 160);
  hookLog(`session-start: ${res.status} ${message ?? errorMessage(res)}${rawStart(res)}`);
  if (res.status === 401) return unavailable(agent, `token refused by ${url}: 401; run \`baton login\``);
  return unavailable(agent, `${url} answered ${res.status}${message ? `: ${message}` : ""}`);
}

function answerFailure(agent: HookAdapter, error: unknown, url: string, timeoutMs: number): void {
  if (error instanceof Unreachable) {
    hookLog(`session-start: ${error.message}`);
    const why = {
      timeout: `no answer from ${url} within ${timeoutMs} ms`,
      refused: `server not reachable at ${url}`,
      untrusted: `the certificate of ${url} is not trusted: set caFile, see hook.log`,
      certificate: `the certificate of ${url} was refused: see hook.log`,
      redirect: `${url} redirects elsewhere: see hook.log`,
      "not-baton": `${url} did not answer as a Baton server: see hook.log`,
    }[error.reason];
    return unavailable(agent, why);
  }
  hookLog(`session-start: ${(error as Error).stack ?? String(error)}`);
  return unavailable(agent, `error: ${(error as Error).message}`.slice(0, 200));
}

export async function runSessionStart(agentName: AgentName): Promise<void> {
  const opened = await openHook("session-start", agentName, {
    limit: (config) => config.timeoutMs,
    stdinShare: 0.4,
    stdinMaxMs: 1000,
    onLimit: (ms, config, agent) => {
      hookLog(`session-start: no answer within ${ms} ms`);
      unavailable(agent, config.url ? `no answer from ${config.url} within ${ms} ms` : `gave up after ${ms} ms`);
    },
  });
  if (!opened.ok) return opened.duplicate ? answerOnce("") : unavailable(opened.agent, opened.problem);
  const { agent, facts, cwd, config, startedAt, limitMs } = opened.hook;
  const deadline = startedAt + limitMs - PRINT_MS;
  if (!config.inject) {
    hookLog(`session-start: nothing injected: "inject": false in ${config.repoConfigFile}`);
    return answerOnce("");
  }
  const server = configuredServer(agent, config);
  if (!server) return;

  const hints = config.repoRoot ? await gitHints(cwd, Math.max(100, Math.min(800, (deadline - Date.now()) / 2))) : NO_GIT_HINTS;
  const call = apiClient({ ...server, caFile: config.caFile, timeoutMs: limitMs });
  // Within half the time at most: the context is what the session waits for.
  await flushPending(call, server.url, Math.min(deadline - 200, startedAt + limitMs / 2));

  // The server decides the project: the configured one, else its matchers, else the guess (SPEC §3).
  const project = projectHints({ configured: config.project, remote: hints.remote, repoRoot: config.repoRoot, cwd });
  try {
    answerWith(agent, await getForProject(call, "/api/context", project, contextParams(agent.name, facts, hints, config), deadline), server.url);
  } catch (error) {
    answerFailure(agent, error, server.url, limitMs);
  }
}
