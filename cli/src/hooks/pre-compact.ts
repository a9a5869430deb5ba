import { AGENTS } from "../agents/agents";
import type { HookFacts } from "../agents/agent";
import { projectHints } from "../config/derive-project";
import { branchFromHead, currentBranch, originUrl } from "../config/git-info";
import { apiClient, type ApiCall } from "../http/api-client";
import type { AgentName } from "../../../lib/rules";
import { buildHandoff } from "../transcript/build-handoff";
import { SecretRedactor } from "../../../lib/secrets/redact-secrets";
import { redactHandoffFacts } from "../transcript/redact-transcript";
import { deliver, handoffRequest, type Outgoing } from "./deliver";
import { answerOnce } from "./hook-exit";
import { hookLog } from "./hook-log";
import { openHook } from "./open-hook";
import { flushSpool, waiting } from "./spool";

// `baton hook pre-compact` (PreCompact, where the agent has a real one): before the agent summarises the conversation away, the
// handoff so far is posted under the session's id as a checkpoint. The context after the compaction
// (source=compact) leads with it, and the session's SessionEnd handoff later replaces it. Prints
// nothing, always exits 0, within the hooks' time limit (timeoutMs, 2 s); what cannot be sent in
// time is spooled, and the session-start hook that follows the compaction sends it first.

/** A checkpoint reads the transcript's end at most: parsing must fit the hook's time limit. */
const MAX_CHECKPOINT_TRANSCRIPT = 8 * 1024 * 1024;
const GIT_MS = 500;
/** Leaves time to spool what could not be sent before the time limit. */
const PRINT_MS = 50;
/**
 * Less time than this left once the checkpoint is made (a long transcript read and redacted on a busy
 * machine), or than half the time limit, and it is spooled at once, before anything waits: git and the
 * request would outlast the time limit, which ends the hook at its first wait. The session-start hook
 * after the compaction sends it.
 */
const SEND_MS = GIT_MS + 300;

/** The checkpoint handoff of the transcript so far, redacted; null when the session has said nothing yet. */
async function checkpointOf(agent: AgentName, facts: HookFacts, sessionId: string, cwd: string): Promise<string | null> {
  const redactor = new SecretRedactor();
  const reader = await AGENTS[agent].transcript();
  const read = reader.read(facts, { maxBytes: MAX_CHECKPOINT_TRANSCRIPT, onError: (m) => hookLog(`pre-compact: ${m}`) });
  if (!read) return null;
  const transcript = redactHandoffFacts(read, redactor);
  return buildHandoff({ transcript, lastAssistantMessage: null, cwd, sessionId, withheld: redactor.summary(), checkpoint: true });
}

/**
 * Posts the checkpoint. What earlier hooks left in the spool goes first; while an older handoff of this
 * session is left (sent after this one, it would replace it), the checkpoint is spooled in its place
 * rather than sent ahead. Other requests left behind (another session's, one the server would not take
 * yet) do not hold it back.
 */
async function send(call: ApiCall, server: string, request: Outgoing, deadline: number): Promise<void> {
  await flushSpool(call, server, deadline);
  const queued = request.replaces !== undefined && waiting(request.replaces);
  const counts = await deliver(queued ? null : call, [request], { timeoutMs: Math.max(1, deadline - Date.now()), who: "pre-compact", server });
  hookLog(`pre-compact: checkpoint sent ${counts.sent}, spooled ${counts.spooled}, refused ${counts.dropped}`);
}

export async function runPreCompact(agentName: AgentName): Promise<void> {
  const opened = await openHook("pre-compact", agentName, {
    limit: (config) => config.timeoutMs,
    stdinShare: 0.25,
    stdinMaxMs: 500,
    onLimit: (ms) => hookLog(`pre-compact: not done within ${ms} ms`),
  });
  if (!opened.ok) return answerOnce("");
  const { agent, facts, cwd, config, startedAt, limitMs } = opened.hook;
  const { sessionId } = facts;
  if (!sessionId || !config.url || !config.token) {
    hookLog(`pre-compact: ${sessionId ? "no server configured (BATON_URL, BATON_TOKEN)" : "no session_id in the hook input"}`);
    return answerOnce("");
  }
  const markdown = await checkpointOf(agent.name, facts, sessionId, cwd);
  if (!markdown) return answerOnce("");
  const late = Date.now() > startedAt + limitMs - Math.min(SEND_MS, limitMs / 2);
  // The server files the checkpoint where the session started; the remote is a hint for when that start
  // never reached it, not asked when a project is configured, nor when late (the branch then from HEAD's file).
  const [branch, remote] = !config.repoRoot
    ? [null, null]
    : late
      ? [branchFromHead(config.repoRoot), null]
      : await Promise.all([currentBranch(cwd, GIT_MS), config.project ? null : originUrl(cwd, GIT_MS)]);
  const hints = projectHints({ configured: config.project, remote, repoRoot: config.repoRoot, cwd });
  const request = handoffRequest(markdown, hints, sessionId, branch, { agent: agent.name, model: facts.model });
  if (late) {
    const counts = await deliver(null, [request], { timeoutMs: 1, who: "pre-compact", server: config.url });
    hookLog(`pre-compact: the checkpoint took ${Date.now() - startedAt} ms to make; spooled ${counts.spooled}, for the next hook to send`);
  } else {
    const call = apiClient({ url: config.url, token: config.token, caFile: config.caFile, timeoutMs: limitMs });
    await send(call, config.url, request, startedAt + limitMs - PRINT_MS);
  }
  answerOnce("");
}
