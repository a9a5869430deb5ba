import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelDouble, type ModelDouble } from "../support/model-double";
import { startGeminiDouble, type GeminiDouble } from "../support/model-doubles/gemini";
import { requestText, startOpenAiChatDouble, type OpenAiChatDouble } from "../support/model-doubles/openai-chat";
import { startResponsesDouble, type ResponsesDouble } from "../support/model-doubles/openai-responses";
import { runProcess } from "../support/run-process";
import { ROOT, tempDir } from "../support/server";
import { testWorld } from "../support/world";
import { parseClaudeTranscript } from "../../cli/src/agents/claude/transcript";
import { sessionText } from "../../cli/src/summarise/session-text";
import { createProject } from "../support/fixtures";
import { claudeCodeEnv, fixture, homeEnv, hungServer, makeRepo, recordingProxy, removeAfterWorkers, runBaton, waitFor, writeUserConfig } from "../fixtures/cli/cli-env";

// The built-in summariser (issue 23): at a session's end the worker asks the developer's own agent
// (the real `claude -p`, `codex exec`, `gemini -p` from npm) or an OpenAI-compatible endpoint for the
// handoff and the lessons, each against a local double of its model API that answers with a fixed
// summary: the doubles prove the plumbing (what is sent, what comes back, what is kept), not the
// quality. The agent runs with Baton installed in the same HOME and its hooks off.

const world = testWorld({ users: ["ana"], projects: {}, members: [], tokens: {} });
const tmp = tempDir("baton-summariser-");
afterAll(() => removeAfterWorkers(tmp.remove));

const BATON = path.join(ROOT, "cli/bin/baton.mjs");
/** A secret the user pasted: redacted before the transcript leaves for any model. */
const SECRET = "ghp_Zq8vN3kR7tY2wX5mB9cL4dF6hJ1pS0aQeU3i";
const FIRST_ASK = "Add a revoke button to the API token list in the dashboard.";
const ASKED = "Revoke API tokens from the dashboard's token list.";
const DONE = "Added the revoke button, calling a server action.";
const OPEN = "The e2e test for revoking is still failing.";
/** The lesson the doubles answer with, tagged with the run it summarises. */
const lessonOf = (tag: string) => `The token list refreshes after a revoke through the server action's revalidation (${tag}).`;
const REFRESH_ASK = "Does the list refresh after revoking?";
/** The worker gives up waiting on the summariser's agents well before the test does. */
const SUMMARISER_MS = 60_000;

let proxy: Awaited<ReturnType<typeof recordingProxy>>;

type Handoff = { sessionId: string | null; markdown: string };
type Proposal = { content: string; project: string | null; lesson: string | null; method: string | null; confidence: number; evidence: { turn: number; who: string; text: string }[] | null };

/**
 * One session's end: its id, which is also its project's slug (proposals alike merge within a project,
 * so each run has its own), the repository it ran in and the HOME of the user who ran it.
 */
type Run = { id: string; repo: string; home: string };

const handoffOf = async (run: Run) => ((await world.as("ana")("GET", `/api/projects/${run.id}/handoffs`)).json.items as Handoff[]).find((h) => h.sessionId === run.id);
const proposalsOf = async (run: Run) => ((await world.as("ana")("GET", "/api/proposals?limit=100")).json.items as Proposal[]).filter((p) => p.project === run.id);
const hookLog = (home: string) => {
  const file = path.join(home, ".cache", "baton", "hook.log");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
};

/**
 * The double's summary of the session it was sent: the lesson cites the line of the session text that
 * holds the first request (so its evidence is that line as the transcript says it), and a second lesson
 * cites a line the session does not have (left out).
 */
function summaryFor(sessionText: string): string {
  const [, turn, tag] = new RegExp(`\\[(\\d+)\\] user: ${REFRESH_ASK.replace("?", "\\?")} \\(run ([\\w-]+)\\)`).exec(sessionText) ?? [];
  return JSON.stringify({
    handoff: { asked: ASKED, done: [DONE], open: [OPEN] },
    lessons: [
      { kind: "fact", lesson: lessonOf(tag ?? "?"), evidence: [Number(turn ?? -1)], confidence: 0.8 },
      { kind: "decision", lesson: "A made-up decision citing nothing the session said.", evidence: [100_000], confidence: 0.9 },
    ],
  });
}
const isSummaryRequest = (text: string) => text.includes("You summarise a finished coding session");

/**
 * The test's transcript of a Claude Code session, for run `tag` (its id too): the user's question names
 * the run, next to a secret they pasted.
 */
function transcriptFor(run: Run): string {
  const file = path.join(tmp.dir, `${run.id}.jsonl`);
  writeFileSync(file, fixture("transcript.jsonl").replaceAll("/home/ana/src/web", run.repo).replace(REFRESH_ASK, `${REFRESH_ASK} (run ${run.id}) My token is ${SECRET}`));
  return file;
}

/** The summary of a run's transcript, for a double that is scripted before it is asked (Codex's, Gemini's). */
const summaryOfTranscript = (run: Run) => summaryFor(sessionText(parseClaudeTranscript(readFileSync(transcriptFor(run), "utf8"))));

/** `baton hook session-end` as the agent runs it at a session's end, then the worker's work done. */
async function endSession(run: Run, env: Record<string, string>, hook: "session-end" | "stop" = "session-end"): Promise<void> {
  const input = { ...JSON.parse(fixture(`hooks/${hook === "stop" ? "stop" : "session-end"}.json`)), cwd: run.repo, transcript_path: transcriptFor(run), session_id: run.id };
  const result = await runBaton(["hook", hook], { cwd: run.repo, env, input: JSON.stringify(input) });
  expect(result.code).toBe(0);
  await waitFor("the worker", () => /session-end worker \((SessionEnd|Stop)\): sent/.test(hookLog(run.home)), SUMMARISER_MS + 30_000);
}

/** The requests Baton's server got from `home`'s hooks: the worker's own, and none from the summariser's agent. */
function expectOnlyTheWorker(from: number): void {
  const seen = proxy.requests.slice(from).map((r) => `${r.method} ${r.url.split("?")[0]}`);
  expect(seen.filter((r) => r === "GET /api/context" || r === "GET /api/context/prompt")).toEqual([]);
  expect(seen.filter((r) => r === "POST /api/handoffs")).toEqual(["POST /api/handoffs"]);
  expect(seen.filter((r) => r === "GET /api/context/project")).toEqual(["GET /api/context/project"]);
}

/** What every summariser's result shows: the model's handoff, its one lesson with the transcript's own evidence. */
async function expectSummarised(run: Run, by: string): Promise<void> {
  const handoff = await handoffOf(run);
  expect(handoff?.markdown.split("\n")[0]).toContain(`(summarised by ${by} from the transcript)`);
  expect(handoff?.markdown).toContain(`### Asked\n${ASKED}`);
  expect(handoff?.markdown).toContain(`### Done\n- ${DONE}`);
  expect(handoff?.markdown).toContain(`- ${OPEN}`);
  // Files touched still come from the transcript.
  expect(handoff?.markdown).toContain("### Files touched");
  const proposals = await proposalsOf(run);
  const fact = proposals.find((p) => p.content === lessonOf(run.id));
  expect(fact).toMatchObject({ method: "model", lesson: "fact", confidence: 0.8 });
  // Its evidence is the line it cited, as the transcript has it, the secret in it withheld.
  expect(fact?.evidence).toEqual([expect.objectContaining({ who: "user", text: expect.stringContaining(`${REFRESH_ASK} (run ${run.id})`) })]);
  expect(JSON.stringify(fact?.evidence)).not.toContain(SECRET);
  expect(proposals.some((p) => p.content.includes("made-up decision"))).toBe(false);
  // The user's own statements ("remember that …", "prefer …") are still proposed, as said.
  expect(proposals.some((p) => p.content === "Prefer server actions for dashboard mutations." && p.method === "transcript")).toBe(true);
}

beforeAll(async () => {
  proxy = await recordingProxy(world.server.url);
});
afterAll(() => proxy?.close());

/** A run's project, repository and HOME, Baton there talking to the server through the recording proxy, `summariser` set. */
async function startRun(id: string, summariser?: unknown): Promise<Run> {
  await createProject(world.server.url, world.tokens.ana!, id);
  const repo = makeRepo(path.join(tmp.dir, "src", id), { remote: `https://github.com/acme/${id}.git`, commits: ["Token list"] });
  const home = path.join(tmp.dir, `home-${id}`);
  writeUserConfig(home, { url: proxy.url, token: world.tokens.ana!, ...(summariser === undefined ? {} : { summariser }) });
  return { id, repo, home };
}

describe("the summariser: the developer's own agent", () => {
  let claudeModel: ModelDouble;
  let codexModel: ResponsesDouble;
  let geminiModel: GeminiDouble;
  beforeAll(async () => {
    claudeModel = await startModelDouble((request) => {
      const text = JSON.stringify(request.body.messages ?? "");
      return isSummaryRequest(text) ? summaryFor(text) : "Hello from the model double.";
    });
  });
  afterAll(() => Promise.all([claudeModel?.stop(), codexModel?.stop(), geminiModel?.stop()]));

  it("claude -p: the handoff and lessons are Claude Code's, the transcript redacted, Baton's hooks off in that session", async () => {
    const claude = execFileSync("bash", [path.join(ROOT, "scripts/ensure-claude-code.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
    const run = await startRun("summarised-claude", { use: "claude", command: claude, timeoutMs: SUMMARISER_MS });
    const { home } = run;
    const env = claudeCodeEnv(home, claudeModel.url);
    // Baton's hooks in the user's own Claude Code settings (as the plugin has them: user-wide), so the
    // summariser's claude -p, which runs outside the repository, would run them.
    expect((await runProcess(process.execPath, [BATON, "install", "claude", "--command", `node ${BATON}`], { env, cwd: run.repo })).code).toBe(0);
    mkdirSync(path.join(home, ".claude"), { recursive: true });
    writeFileSync(path.join(home, ".claude", "settings.json"), readFileSync(path.join(run.repo, ".claude", "settings.json")));
    const from = proxy.requests.length;
    await endSession(run, env);
    await expectSummarised(run, "Claude Code");
    const asked = claudeModel.requests.map((r) => JSON.stringify(r.body)).filter(isSummaryRequest);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain(FIRST_ASK);
    expect(asked[0]).not.toContain(SECRET);
    // No tools offered to it: it reads the transcript, nothing else.
    expect(claudeModel.requests.find((r) => isSummaryRequest(JSON.stringify(r.body)))?.body.tools ?? []).toEqual([]);
    expectOnlyTheWorker(from);
  }, 180_000);

  it("codex exec: the same through Codex CLI", async () => {
    const codex = execFileSync("bash", [path.join(ROOT, "scripts/ensure-agents.sh"), "codex"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
    const run = await startRun("summarised-codex", { use: "codex", command: codex, timeoutMs: SUMMARISER_MS });
    const { home } = run;
    codexModel = await startResponsesDouble([{ text: summaryOfTranscript(run) }]);
    mkdirSync(path.join(home, ".codex"), { recursive: true });
    writeFileSync(
      path.join(home, ".codex", "config.toml"),
      ['model = "gpt-5.5"', 'model_provider = "double"', "", "[model_providers.double]", 'name = "double"', `base_url = "${codexModel.url}"`, 'env_key = "DOUBLE_API_KEY"', 'wire_api = "responses"', ""].join("\n"),
    );
    const env = homeEnv(home, { DOUBLE_API_KEY: "sk-double" });
    for (const key of Object.keys(process.env)) if (/^(OPENAI|CODEX)_/.test(key)) env[key] = "";
    expect((await runProcess(process.execPath, [BATON, "install", "codex", "--command", `node ${BATON}`], { env, cwd: run.repo })).code).toBe(0);
    const from = proxy.requests.length;
    await endSession(run, env);
    await expectSummarised(run, "Codex CLI");
    const asked = codexModel.requests.map((r) => JSON.stringify(r.body)).filter(isSummaryRequest);
    expect(asked).toHaveLength(1);
    expect(asked[0]).not.toContain(SECRET);
    expectOnlyTheWorker(from);
  }, 180_000);

  it("gemini -p: the same through Gemini CLI", async () => {
    const gemini = execFileSync("bash", [path.join(ROOT, "scripts/ensure-agents.sh"), "gemini"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
    const run = await startRun("summarised-gemini", { use: "gemini", command: gemini, model: "gemini-2.5-flash", timeoutMs: SUMMARISER_MS });
    const { home } = run;
    geminiModel = await startGeminiDouble([{ text: summaryOfTranscript(run) }]);
    mkdirSync(path.join(home, ".gemini"), { recursive: true });
    writeFileSync(path.join(home, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }));
    const env = homeEnv(home, { GEMINI_API_KEY: "test-double-key", GOOGLE_GEMINI_BASE_URL: geminiModel.url, NO_COLOR: "1" });
    for (const key of Object.keys(process.env)) if (/^(GEMINI|GOOGLE)_/.test(key) && !(key in env)) env[key] = "";
    expect((await runProcess(process.execPath, [BATON, "install", "gemini", "--command", `node ${BATON}`], { env, cwd: run.repo })).code).toBe(0);
    const from = proxy.requests.length;
    await endSession(run, env);
    await expectSummarised(run, "Gemini CLI (gemini-2.5-flash)");
    const asked = geminiModel.requests.map((r) => JSON.stringify(r.body)).filter(isSummaryRequest);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.join("\n")).not.toContain(SECRET);
    expectOnlyTheWorker(from);
  }, 180_000);
});

describe("the summariser: an OpenAI-compatible endpoint", () => {
  let endpoint: OpenAiChatDouble;
  beforeAll(async () => {
    endpoint = await startOpenAiChatDouble((request) => {
      const text = requestText(request);
      if (request.body.model === "answers-in-prose") return { text: "Sure! Here is what happened in the session." };
      return { text: summaryFor(text) };
    });
  });
  afterAll(() => endpoint?.stop());

  it("asks for a JSON object with the key from the variable named, and sends the summary", async () => {
    const run = await startRun("summarised-endpoint", { use: "openai", url: endpoint.url, model: "llama3.1", apiKeyEnv: "BATON_TEST_MODEL_KEY", timeoutMs: 10_000 });
    const { home } = run;
    const from = endpoint.requests.length;
    await endSession(run, homeEnv(home, { BATON_TEST_MODEL_KEY: "sk-local-key" }));
    await expectSummarised(run, "llama3.1");
    const [request] = endpoint.requests.slice(from);
    expect(request?.authorization).toBe("Bearer sk-local-key");
    expect(request?.body).toMatchObject({ model: "llama3.1", response_format: { type: "json_object" }, stream: false });
    expect(requestText(request!)).toContain(FIRST_ASK);
    expect(requestText(request!)).not.toContain(SECRET);
  });

  it("an answer that is not the summary asked for: the extractive handoff and lessons, and the reason in the log", async () => {
    const run = await startRun("prose", { use: "openai", url: `${endpoint.url}/`, model: "answers-in-prose", timeoutMs: 10_000 });
    const { home } = run;
    await endSession(run, homeEnv(home));
    expect((await handoffOf(run))?.markdown).toContain("(extracted from the transcript by baton)");
    const proposals = await proposalsOf(run);
      expect(proposals.length).toBeGreaterThan(0);
    expect(proposals.every((p) => p.method === "transcript")).toBe(true);
    expect(hookLog(home)).toContain("not the answer asked for");
  });

  it("an endpoint that does not answer in time: the extractive result once the time limit has passed", async () => {
    const hung = await hungServer();
    try {
      const run = await startRun("hung", { use: "openai", url: hung.url, model: "llama3.1", timeoutMs: 5_000 });
    const { home } = run;
      await endSession(run, homeEnv(home));
      expect((await handoffOf(run))?.markdown).toContain("(extracted from the transcript by baton)");
      expect(hookLog(home)).toMatch(/no answer from .* within 5 s/);
    } finally {
      await hung.close();
    }
  });

  it("a setting it cannot read is ignored, said in the log", async () => {
    const run = await startRun("bad-setting", { use: "openai", url: "ftp://models.example", model: "x" });
    const { home } = run;
    await endSession(run, homeEnv(home));
    expect((await handoffOf(run))?.markdown).toContain("(extracted from the transcript by baton)");
    expect(hookLog(home)).toMatch(/summariser setting is ignored \(url:/);
  });

  it("the end of a turn (Stop) does not ask the model: a call per turn would cost too much", async () => {
    const run = await startRun("stopped", { use: "openai", url: endpoint.url, model: "llama3.1", timeoutMs: 10_000 });
    const { home } = run;
    const from = endpoint.requests.length;
    await endSession(run, homeEnv(home), "stop");
    expect(endpoint.requests.length).toBe(from);
    expect((await handoffOf(run))?.markdown).toContain("(extracted from the transcript by baton)");
  });

  it("a repository's .baton.json cannot set one", async () => {
    const run = await startRun("repo-setting");
    const { home } = run;
    writeFileSync(path.join(run.repo, ".baton.json"), JSON.stringify({ summariser: { use: "openai", url: endpoint.url, model: "llama3.1" } }));
    try {
      const from = endpoint.requests.length;
      await endSession(run, homeEnv(home));
      expect(endpoint.requests.length).toBe(from);
      expect((await handoffOf(run))?.markdown).toContain("(extracted from the transcript by baton)");
    } finally {
      writeFileSync(path.join(run.repo, ".baton.json"), "{}");
    }
  });
});
