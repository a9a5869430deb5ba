import { existsSync, readdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import path from "node:path";
import { deriveProject } from "../config/derive-project";
import { gitHints } from "../config/git-info";
import { loadConfig } from "../config/load-config";
import { apiClient, Unreachable, type ApiCall } from "../http/api-client";
import { buildHandoff } from "../transcript/build-handoff";
import { extractProposals } from "../transcript/extract-proposals";
import { parseTranscript, type Transcript } from "../transcript/parse-transcript";
import { stringField, type HookInput } from "./hook-input";
import { cacheDir, hookLog } from "./hook-log";
import { readSent, sentKey, withSessionLock, writeSent } from "./sent-proposals";
import { runSummariser } from "./run-summariser";
import { flushSpool, writeSpool, type SpooledRequest } from "./spool";

type Job = { event: "SessionEnd" | "Stop"; cwd: string; input: HookInput };
type Outgoing = Omit<SpooledRequest, "createdAt">;

const MAX_TRANSCRIPT = 64 * 1024 * 1024;
const REQUEST_MS = 15_000;

function readJob(file: string): Job | null {
  try {
    const job = JSON.parse(readFileSync(file, "utf8")) as Job;
    return job && typeof job === "object" && job.input && typeof job.input === "object" ? job : null;
  } catch (error) {
    hookLog(`session-end worker: cannot read job ${file}: ${(error as Error).message}`);
    return null;
  } finally {
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  }
}

function readTranscript(file: string | null): Transcript | null {
  if (!file || !existsSync(file)) return null;
  try {
    const size = statSync(file).size;
    const text = readFileSync(file, "utf8");
    // A huge transcript: its end says most about where the session stopped.
    return parseTranscript(size > MAX_TRANSCRIPT ? text.slice(-MAX_TRANSCRIPT) : text);
  } catch (error) {
    hookLog(`session-end worker: cannot read the transcript ${file}: ${(error as Error).message}`);
    return null;
  }
}

/** Sends each request; what cannot be sent now is spooled for the next hook run. */
async function deliver(call: ApiCall | null, requests: Outgoing[]): Promise<{ sent: number; spooled: number; dropped: number }> {
  const counts = { sent: 0, spooled: 0, dropped: 0 };
  let reachable = call !== null;
  for (const request of requests) {
    if (reachable && call) {
      try {
        const res = await call(request.method, request.path, request.body, { timeoutMs: REQUEST_MS });
        if (res.status >= 200 && res.status < 300) {
          counts.sent++;
          continue;
        }
        if (res.status >= 400 && res.status < 500 && ![401, 403, 408, 429].includes(res.status)) {
          hookLog(`session-end worker: ${request.what} refused (${res.status}): ${res.text.slice(0, 300)}`);
          counts.dropped++;
          continue;
        }
        hookLog(`session-end worker: ${request.what} answered ${res.status}; spooled`);
      } catch (error) {
        if (!(error instanceof Unreachable)) throw error;
        hookLog(`session-end worker: ${error.message} Spooling.`);
        reachable = false;
      }
    }
    writeSpool(request);
    counts.spooled++;
  }
  return counts;
}

/** Whether the project exists for this token: true, false, or null when the server cannot say now. */
async function projectExists(call: ApiCall | null, slug: string): Promise<boolean | null> {
  if (!call) return null;
  try {
    const res = await call("GET", `/api/projects/${encodeURIComponent(slug)}`, undefined, { timeoutMs: REQUEST_MS });
    if (res.status === 200) return true;
    if (res.status === 404 || res.status === 403) return false;
    return null;
  } catch (error) {
    if (error instanceof Unreachable) return null;
    throw error;
  }
}

/** Job files a worker never picked up (it could not start, or died first): older than ten minutes. */
function staleJobs(): string[] {
  const dir = path.join(cacheDir(), "jobs");
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith(".json"))
      .map((name) => path.join(dir, name))
      .filter((file) => Date.now() - statSync(file).mtimeMs > 10 * 60_000);
  } catch {
    return [];
  }
}

/** The detached worker of `baton hook session-end`: its own job, then any job left behind. */
export async function runSessionEndWorker(jobFile: string): Promise<void> {
  await processJob(jobFile);
  for (const stale of staleJobs()) {
    hookLog(`session-end worker: picking up a job left behind, ${path.basename(stale)}`);
    await processJob(stale);
  }
}

async function processJob(jobFile: string): Promise<void> {
  const job = readJob(jobFile);
  if (!job) return;
  const input = job.input;
  const inputCwd = stringField(input.cwd, 4096);
  const cwd = inputCwd && path.isAbsolute(inputCwd) && existsSync(inputCwd) ? inputCwd : job.cwd;
  const config = loadConfig(cwd);
  const call = config.url && config.token ? apiClient({ url: config.url, token: config.token, timeoutMs: REQUEST_MS }) : null;
  if (!call) hookLog("session-end worker: no server configured (BATON_URL, BATON_TOKEN); spooling");

  if (call) {
    const flushed = await flushSpool(call, Date.now() + 60_000);
    if (flushed.sent || flushed.dropped || flushed.stoppedBy) hookLog(`session-end worker: spool sent ${flushed.sent}, dropped ${flushed.dropped}, kept ${flushed.kept}`);
  }

  const sessionId = stringField(input.session_id, 200);
  const transcriptPath = stringField(input.transcript_path, 4096);
  const transcript = readTranscript(transcriptPath) ?? parseTranscript("");
  const lastAssistantMessage = stringField(input.last_assistant_message, 1_000_000);
  const hints = config.repoRoot ? await gitHints(cwd, 3000) : { branch: null, remote: null, subjects: [] };
  const derived = deriveProject({ configured: config.project, remote: hints.remote, repoRoot: config.repoRoot, cwd });
  const exists = derived ? await projectExists(call, derived.slug) : false;
  if (derived && exists === false) hookLog(`session-end worker: no project "${derived.slug}" (from ${derived.from}) on the server; the handoff is not stored, proposals are personal`);
  const project = derived && exists !== false ? derived.slug : null;

  let markdown: string | null = null;
  if (config.summariser && transcriptPath) markdown = await runSummariser(config.summariser, transcriptPath, cwd, sessionId);
  markdown ??= buildHandoff({ transcript, lastAssistantMessage, cwd, sessionId });

  const requests: Outgoing[] = [];
  if (markdown && project) {
    const branch = hints.branch ?? transcript.branch;
    requests.push({
      method: "POST",
      path: `/api/projects/${encodeURIComponent(project)}/handoffs`,
      body: { markdown, ...(sessionId ? { sessionId } : {}), ...(branch ? { branch } : {}) },
      what: `the handoff of session ${sessionId ?? "(no id)"}`,
    });
  }

  const userTexts = transcript.events.filter((e) => e.kind === "user").map((e) => e.text);
  const work = async () => {
    const sent = sessionId ? readSent(sessionId) : new Set<string>();
    const fresh = extractProposals(userTexts).filter((p) => !sent.has(sentKey(p.content)));
    for (const p of fresh) {
      requests.push({
        method: "POST",
        path: "/api/proposals",
        body: { kind: p.kind, content: p.content, confidence: p.confidence, source: sessionId ?? "session-end", ...(project ? { project } : {}) },
        what: `a proposal from session ${sessionId ?? "(no id)"}`,
      });
    }
    const counts = await deliver(call, requests);
    if (sessionId && fresh.length) {
      for (const p of fresh) sent.add(sentKey(p.content));
      writeSent(sessionId, sent);
    }
    hookLog(`session-end worker (${job.event}): sent ${counts.sent}, spooled ${counts.spooled}, refused ${counts.dropped}`);
  };
  await (sessionId ? withSessionLock(sessionId, work) : work());
}
