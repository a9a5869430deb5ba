import { existsSync, readdirSync, readFileSync, rmdirSync, statSync, unlinkSync } from "node:fs";
import path from "node:path";
import { projectHints, type ProjectHints } from "../config/derive-project";
import { gitHints, NO_GIT_HINTS } from "../config/git-info";
import { loadConfig, type BatonConfig } from "../config/load-config";
import { apiClient, isBatonAnswer, notBatonDetail, rawStart, Unreachable, type ApiCall } from "../http/api-client";
import { AGENTS } from "../agents/agents";
import type { HookFacts } from "../agents/agent";
import { emptySession, type Session } from "../agents/session";
import { isAgentName, MAX_PROPOSALS_PER_SESSION, type AgentName, type ProposalMethod } from "../../../lib/rules";
import { buildHandoff } from "../transcript/build-handoff";
import { distinctLessons, extractLessons } from "../lessons/extract-lessons";
import { proposalKey, type Lesson } from "../lessons/lesson";
import { SecretRedactor } from "../../../lib/secrets/redact-secrets";
import { redactTranscript } from "../transcript/redact-transcript";
import { cacheDirIfAny, hookLog, logConfigWarnings } from "./hook-log";
import { readSent, withSessionLock, writeSent } from "./sent-proposals";
import type { SummariserSpec } from "../summarise/summariser-config";
import { runSummariserCommand } from "../summarise/run-command";
import { deliver, handoffRequest, producedBy, type Delivered, type Outgoing, type ProducedBy } from "./deliver";
import { flushSpool } from "./spool";

/** What `baton hook session-end` left for the worker: the agent's hook input as it came. */
type Job = { event: "SessionEnd" | "Stop"; agent: AgentName; cwd: string; input: Record<string, unknown> };

/** A huge transcript: its end says most about where the session stopped. */
const MAX_TRANSCRIPT = 64 * 1024 * 1024;
/** Nobody waits on the worker (it runs detached), so it gives the server and git time. */
const REQUEST_MS = 15_000;
const FLUSH_MS = 60_000;
const GIT_MS = 3000;
/** A job file no worker picked up this long after it was written was left behind. */
const STALE_JOB_MS = 10 * 60_000;

function readJob(file: string): Job | null {
  try {
    const job = JSON.parse(readFileSync(file, "utf8")) as Job;
    if (!job || typeof job !== "object" || !job.input || typeof job.input !== "object") return null;
    // A job written before agents had names came from Claude Code.
    return { ...job, agent: isAgentName(job.agent) ? job.agent : "claude" };
  } catch (error) {
    hookLog(`session-end worker: cannot read job ${file}: ${(error as Error).message}`);
    return null;
  } finally {
    try {
      unlinkSync(file);
      // A job written where the cache could not be (session-end.ts) had a temporary folder of its own.
      if (path.basename(path.dirname(file)).startsWith("baton-job-")) rmdirSync(path.dirname(file));
    } catch {
      // already gone
    }
  }
}

/**
 * The session's project as the server decides it (the one its start was served for, else the hints
 * resolved): its slug, null for none (personal), or undefined when the server cannot say now.
 */
async function serverProject(call: ApiCall | null, hints: ProjectHints, sessionId: string | null): Promise<string | null | undefined> {
  if (!call) return undefined;
  const query = new URLSearchParams({ ...hints, ...(sessionId ? { sessionId } : {}) });
  try {
    const res = await call("GET", `/api/context/project?${query}`, undefined, { timeoutMs: REQUEST_MS });
    if (isBatonAnswer(res)) return (res.json as { project?: { slug?: string } | null }).project?.slug ?? null;
    if (res.status < 300) {
      hookLog(`session-end worker: ${res.server} did not answer as a Baton server (${notBatonDetail(res)}${rawStart(res)})`);
      return undefined;
    }
    hookLog(`session-end worker: the server could not say the session's project (${res.status}): ${res.text.slice(0, 200)}`);
    return res.status === 404 || res.status === 403 ? null : undefined;
  } catch (error) {
    if (error instanceof Unreachable) return undefined;
    throw error;
  }
}

/** Job files a worker never picked up (it could not start, or died first): older than ten minutes. */
function staleJobs(): string[] {
  const cache = cacheDirIfAny();
  if (!cache) return [];
  const dir = path.join(cache, "jobs");
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith(".json"))
      .map((name) => path.join(dir, name))
      .filter((file) => Date.now() - statSync(file).mtimeMs > STALE_JOB_MS);
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

/** Where the session ran, and the server to send to (null when none is configured). */
type Connection = { cwd: string; config: BatonConfig; call: ApiCall | null };

/**
 * What the ended session left: its id, its transcript and its last word, redacted (`withheld` says
 * what was kept back, or is null), and which agent and model produced it.
 */
type EndedSession = { sessionId: string | null; transcriptPath: string | null; transcript: Session; lastAssistantMessage: string | null; withheld: string | null; by: ProducedBy };

function connect(facts: HookFacts, job: Job): Connection {
  const cwd = facts.cwd && existsSync(facts.cwd) ? facts.cwd : job.cwd;
  const config = loadConfig(cwd);
  logConfigWarnings("session-end worker", config.warnings);
  const call = config.url && config.token ? apiClient({ url: config.url, token: config.token, caFile: config.caFile, timeoutMs: REQUEST_MS }) : null;
  if (!call) hookLog("session-end worker: no server configured (BATON_URL, BATON_TOKEN); spooling");
  return { cwd, config, call };
}

/** What earlier hooks could not deliver goes first. */
async function flushEarlier(call: ApiCall, server: string): Promise<void> {
  const flushed = await flushSpool(call, server, Date.now() + FLUSH_MS);
  if (flushed.sent || flushed.dropped || flushed.stoppedBy) hookLog(`session-end worker: spool sent ${flushed.sent}, dropped ${flushed.dropped}, kept ${flushed.kept}`);
}

/** The session as the agent's own transcript tells it, read by that agent's reader, redacted. */
async function readEndedSession(agent: AgentName, facts: HookFacts): Promise<EndedSession> {
  const redactor = new SecretRedactor();
  const reader = await AGENTS[agent].transcript();
  const read = reader.read(facts, { maxBytes: MAX_TRANSCRIPT, onError: (m) => hookLog(`session-end worker: ${m}`) });
  const transcript = redactTranscript(read ?? emptySession(agent), redactor);
  const last = facts.lastAssistantMessage;
  const lastAssistantMessage = last === null ? null : redactor.text(last);
  const by = { agent, model: facts.model ?? transcript.model };
  return { sessionId: facts.sessionId ?? transcript.sessionId, transcriptPath: facts.transcriptPath, transcript, lastAssistantMessage, withheld: redactor.summary(), by };
}

/**
 * Where the session ran: what the server says its project is (null: personal; undefined: the server
 * cannot say now), the hints the handoff and proposals carry (the server files them by these, later too
 * when they are spooled), whether a handoff is to be posted (not when the server says there is no
 * project), and the branch git reports.
 */
async function locate(where: Connection, sessionId: string | null): Promise<{ project: string | null | undefined; hints: ProjectHints; postHandoff: boolean; branch: string | null }> {
  const { cwd, config, call } = where;
  const git = config.repoRoot ? await gitHints(cwd, GIT_MS) : NO_GIT_HINTS;
  const hints = projectHints({ configured: config.project, remote: git.remote, repoRoot: config.repoRoot, cwd });
  const project = await serverProject(call, hints, sessionId);
  if (project === null) hookLog("session-end worker: the session is in no project of yours on the server; no handoff is stored, proposals are personal");
  return { project, hints, postHandoff: project !== null, branch: git.branch };
}

/** A lesson candidate with how it was found: read from the transcript, or by the configured model. */
type Candidate = Lesson & { method: Extract<ProposalMethod, "transcript" | "model"> };

/** What the session's end sends: its handoff (null when there is none to send) and its lesson candidates, surest first. */
type Ending = { markdown: string | null; lessons: Candidate[] };

const fromTranscript = (lessons: Lesson[]): Candidate[] => lessons.map((l) => ({ ...l, method: "transcript" }));

/** The summariser the user set, or null (none, or a setting that cannot be read: said in the log). Read with zod, loaded only when one is set. */
async function summariserOf(config: BatonConfig): Promise<SummariserSpec | null> {
  if (config.summariser === null || config.summariser === undefined) return null;
  const { parseSummariser } = await import("../summarise/summariser-config");
  const setting = parseSummariser(config.summariser);
  if (setting.ok) return setting.spec;
  hookLog(`session-end worker: the summariser setting is ignored (${setting.problem}); run \`baton doctor\``);
  return null;
}

/**
 * The handoff and lessons: from the configured summariser when there is one and it answers, else
 * extracted from the transcript. A model is asked at the session's end only, not at every turn's end
 * (a Stop), which would cost a call per turn. Statements made in so many words ("always …") are the
 * user's own and go first whoever summarises.
 */
async function endSession(job: Job, where: Connection, ended: EndedSession, postHandoff: boolean): Promise<Ending> {
  const spec = await summariserOf(where.config);
  const handoffInput = { transcript: ended.transcript, lastAssistantMessage: ended.lastAssistantMessage, cwd: where.cwd, sessionId: ended.sessionId, withheld: ended.withheld };
  const extracted = extractLessons(ended.transcript);
  const extractive = (): Ending => ({ markdown: postHandoff ? buildHandoff(handoffInput) : null, lessons: fromTranscript(extracted) });
  if (!spec || (spec.use !== "command" && job.event !== "SessionEnd")) return extractive();
  if (spec.use === "command") {
    if (!postHandoff || !ended.transcriptPath) return extractive();
    const run = await runSummariserCommand(spec.command, ended.transcriptPath, where.cwd, ended.sessionId);
    if (!run.ok) hookLog(`session-end worker: summariser: ${run.problem}; using the extracted handoff`);
    return run.ok ? { markdown: commandHandoff(run.markdown), lessons: fromTranscript(extracted) } : extractive();
  }
  const { summariseSession } = await import("../summarise/summarise");
  const model = await summariseSession(spec, ended.transcript, (m) => hookLog(`session-end worker: ${m}`));
  if (!model) return extractive();
  const said = fromTranscript(extracted.filter((l) => l.lesson === "explicit"));
  return {
    markdown: postHandoff ? buildHandoff({ ...handoffInput, summary: model.summary }) : null,
    lessons: distinctLessons<Candidate>([...said, ...model.lessons.map((l): Candidate => ({ ...l, method: "model" }))]),
  };
}

/** A summariser command read the raw transcript: its text is redacted like everything else. */
function commandHandoff(summary: string): string {
  const redactor = new SecretRedactor();
  const markdown = redactor.text(summary).trimEnd();
  const withheld = redactor.summary();
  return withheld ? `${markdown}\n\n${withheld}\n` : `${markdown}\n`;
}

/** Where a proposal is filed: the session's project when the server said it, personal when it said none, else the session for the server to resolve when the proposal reaches it (sent now, or from the spool later). */
type Filing = { project: string | null | undefined; hints: ProjectHints };

function proposalRequest(p: Candidate, filing: Filing, sessionId: string | null, by: ProducedBy): Outgoing {
  const { project, hints } = filing;
  return {
    method: "POST",
    path: "/api/proposals",
    body: {
      kind: p.kind,
      content: p.content,
      confidence: p.confidence,
      source: sessionId ?? "session-end",
      ...(project ? { project } : project === undefined ? { session: { ...hints, ...(sessionId ? { sessionId } : {}) } } : {}),
      ...producedBy(by),
      lesson: p.lesson,
      evidence: p.evidence,
      method: p.method,
    },
    what: `a proposal from session ${sessionId ?? "(no id)"}`,
  };
}

/**
 * Sends `requests` and the session's learning candidates not sent before, then remembers those as
 * sent. Under the session's lock, so a Stop hook and a SessionEnd hook running at once never send
 * the same candidate twice.
 */
async function sendWithProposals(job: Job, { call, config }: Connection, ended: EndedSession, filing: Filing, requests: Outgoing[], lessons: Candidate[]): Promise<Delivered | null> {
  const { sessionId } = ended;
  let delivered: Delivered | null = null;
  const work = async () => {
    const sent = sessionId ? readSent(sessionId) : new Set<string>();
    // At most MAX_PROPOSALS_PER_SESSION for the whole session, however many turns end in a Stop hook.
    const fresh = lessons
      .filter((p) => !sent.has(proposalKey(p.content)))
      .slice(0, Math.max(0, MAX_PROPOSALS_PER_SESSION - sent.size));
    const counts = await deliver(call, [...requests, ...fresh.map((p) => proposalRequest(p, filing, sessionId, ended.by))], { timeoutMs: REQUEST_MS, who: "session-end worker", server: config.url });
    if (sessionId && fresh.length) {
      for (const p of fresh) sent.add(proposalKey(p.content));
      writeSent(sessionId, sent);
    }
    hookLog(`session-end worker (${job.event}): sent ${counts.sent}, spooled ${counts.spooled}, refused ${counts.dropped}`);
    delivered = counts;
  };
  await (sessionId ? withSessionLock(sessionId, work) : work());
  return delivered;
}

async function processJob(jobFile: string): Promise<void> {
  const job = readJob(jobFile);
  if (!job) return;
  const facts = (await AGENTS[job.agent].hook()).facts(job.input);
  const where = connect(facts, job);
  if (where.call && where.config.url) await flushEarlier(where.call, where.config.url);
  const ended = await readEndedSession(job.agent, facts);
  const { project, hints, postHandoff, branch } = await locate(where, ended.sessionId);
  const { markdown, lessons } = await endSession(job, where, ended, postHandoff);
  const handoff = markdown ? [handoffRequest(markdown, hints, ended.sessionId, branch ?? ended.transcript.branch, ended.by)] : [];
  const delivered = await sendWithProposals(job, where, ended, { project, hints }, handoff, lessons);
  // Used or not, and flags (issue 27): at the session's end only, not at every turn's Stop, and not when
  // the server could not take the handoff just now (it would not answer this either).
  if (where.call && ended.sessionId && job.event === "SessionEnd" && !delivered?.spooled) {
    const { reportUsage } = await import("../usage/report-usage");
    await reportUsage(where.call, ended.sessionId, ended.transcript, { root: where.config.repoRoot, cwd: where.cwd }, { timeoutMs: REQUEST_MS, gitMs: GIT_MS, log: (m) => hookLog(`session-end worker: ${m}`) });
  }
}
