import type { HookFacts } from "../agents/agent";
import { projectHints } from "../config/derive-project";
import { originUrl } from "../config/git-info";
import type { BatonConfig } from "../config/load-config";
import { apiClient, errorMessage, rawStart, type ApiResponse } from "../http/api-client";
import { PROMPT_HINT_CHARS, type AgentName } from "../../../lib/rules";
import { additionalContext, getForProject } from "./fetch-for-project";
import { answerOnce } from "./hook-exit";
import { hookLog } from "./hook-log";
import { openHook } from "./open-hook";
import { searchHint } from "./search-hint";

// `baton hook prompt` (Claude Code's and Codex's UserPromptSubmit, Gemini's BeforeAgent, …): runs
// before every prompt, so it is quick and quiet. It prints the agent's hook answer when the server has
// something relevant and new for the session, and nothing otherwise; whatever goes wrong, it exits 0 within its time limit (promptTimeoutMs, 1 s).

/** Leaves time to print before the time limit. */
const PRINT_MS = 30;
/** The prompt as it may leave the machine (searchHint): redacted, cut to its opening. */
export const promptHint = (prompt: string): string => searchHint(prompt, PROMPT_HINT_CHARS);

/** The context the server's answer holds, else "". */
function contextOf(res: ApiResponse): string {
  if (res.status !== 200) {
    hookLog(`prompt: ${res.status} ${errorMessage(res).slice(0, 160)}${rawStart(res)}`);
    return "";
  }
  const context = additionalContext(res);
  return typeof context === "string" ? context : "";
}

/** What the hook needs from its input and configuration, or null (logged) when it has nothing to do. */
function readRequest(facts: HookFacts, config: BatonConfig): { sessionId: string; prompt: string; url: string; token: string } | null {
  const { sessionId } = facts;
  if (!config.inject) hookLog(`prompt: nothing injected: "inject": false in ${config.repoConfigFile}`);
  else if (!config.url || !config.token) hookLog("prompt: no server configured (BATON_URL, BATON_TOKEN)");
  else if (!sessionId) hookLog("prompt: no session_id in the hook input");
  else {
    // Redacted only when it will be sent.
    const prompt = facts.prompt === null ? "" : promptHint(facts.prompt);
    if (prompt) return { sessionId, prompt, url: config.url, token: config.token };
  }
  return null;
}

export async function runPrompt(agentName: AgentName): Promise<void> {
  const opened = await openHook("prompt", agentName, {
    limit: (config) => config.promptTimeoutMs,
    stdinShare: 0.4,
    stdinMaxMs: 500,
    onLimit: (ms) => hookLog(`prompt: no answer within ${ms} ms`),
  });
  if (!opened.ok) return answerOnce("");
  const { agent, facts, cwd, config, startedAt, limitMs } = opened.hook;
  const deadline = startedAt + limitMs - PRINT_MS;
  const request = readRequest(facts, config);
  if (!request) return answerOnce("");
  // The server answers for the project the session started in; the hints matter only when that start
  // never reached it, and then a configured project decides without the remote.
  const remote = config.repoRoot && !config.project ? await originUrl(cwd, Math.max(100, (deadline - Date.now()) / 2)) : null;
  const project = projectHints({ configured: config.project, remote, repoRoot: config.repoRoot, cwd });
  const call = apiClient({ url: request.url, token: request.token, caFile: config.caFile, timeoutMs: limitMs });
  try {
    const params = new URLSearchParams({ format: "claude", sessionId: request.sessionId, q: request.prompt });
    const res = await getForProject(call, "/api/context/prompt", project, params, deadline);
    answerOnce(agent.output("prompt", contextOf(res)));
  } catch (error) {
    hookLog(`prompt: ${(error as Error).message ?? String(error)}`);
    answerOnce("");
  }
}
