import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillerSeed } from "../support/filler-seed";
import { startGeminiDouble, type GeminiDouble } from "../support/model-doubles/gemini";
import { runProcess } from "../support/run-process";
import { ROOT, tempDir } from "../support/server";
import { testWorld } from "../support/world";
import { homeEnv, makeRepo, PATIENT_HOOKS, removeAfterWorkers, waitFor, writeUserConfig } from "../fixtures/cli/cli-env";

// The real Gemini CLI from npm (pinned in scripts/ensure-agents.sh), offline, with its model API replaced by
// a local double that answers with scripted tool calls: Baton installed by `baton install gemini` into a
// throwaway HOME, against the real built server.

const world = testWorld({ users: ["ana"], projects: { web: "ana" }, members: [], tokens: {} });
const tmp = tempDir("baton-agent-gemini-");
afterAll(() => removeAfterWorkers(() => rmSync(tmp.dir, { recursive: true, force: true })));

const BATON = path.join(ROOT, "cli/bin/baton.mjs");
/** What `baton install` would pick itself from a checkout (so that `baton doctor`, which checks for that, agrees). */
const COMMAND = `node ${BATON}`;
const MARKER = "Did: the gemini marker handoff.";
/** Older than a store's worth of newer learnings and matching no hint: not in the session start's context, only a prompt's. */
const FLAMINGO = "The flamingo signing keys rotate through the vault job every Tuesday";
const STATEMENT = "Always run the linter before committing.";
const PROMPT = `How do the flamingo signing keys rotate? Write it down in notes.txt. ${STATEMENT}`;
/** Fails the first time (and leaves build.ok behind), passes the second: one command, failing then passing. */
const CHECK = "test -f build.ok || { touch build.ok; exit 3; }";
/** Gemini CLI's own limit on a shell command, so that a hung one fails the test rather than hanging it. */
const GEMINI_MS = 120_000;

let repo: string;
let home: string;
let gemini: string;
let model: GeminiDouble;

type Handoff = { markdown: string; agent?: string; model?: string | null };
type Proposal = { content: string; agent?: string };
const handoffs = async () => (await world.as("ana")("GET", "/api/projects/web/handoffs")).json.items as Handoff[];
const proposals = async () => (await world.as("ana")("GET", "/api/proposals?limit=100")).json.items as Proposal[];

beforeAll(async () => {
  repo = makeRepo(path.join(tmp.dir, "src", "web"), { remote: "git@github.com:acme/web.git", commits: ["Add the token list"] });
  home = path.join(tmp.dir, "home");
  expect((await world.as("ana")("POST", "/api/projects/web/handoffs", { markdown: MARKER, branch: "main" })).status).toBe(201);
  expect((await world.as("ana")("POST", "/api/learnings", { kind: "insight", content: FLAMINGO, project: "web", createdAt: "2025-01-01T00:00:00.000Z" })).status).toBe(201);
  expect((await world.as("ana")("POST", "/api/seed/import", fillerSeed(150))).status).toBe(200);
  // Installs @google/gemini-cli from npm into .tools/ the first time (scripts/test.sh does it up front).
  gemini = execFileSync("bash", [path.join(ROOT, "scripts/ensure-agents.sh"), "gemini"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  model = await startGeminiDouble([
    { call: "write_file", args: { file_path: path.join(repo, "notes.txt"), content: "Keys rotate every Tuesday.\n" } },
    { call: "run_shell_command", args: { command: CHECK, description: "Check the build" } },
    { call: "run_shell_command", args: { command: CHECK, description: "Check the build again" } },
    { text: "Wrote notes.txt; the build check passes now." },
  ]);
}, 300_000);
afterAll(() => model?.stop());

/** Gemini CLI with the throwaway HOME, an API key for the double, and nothing of the machine's Gemini settings. */
function geminiEnv(): Record<string, string> {
  const env = homeEnv(home, { GEMINI_API_KEY: "test-double-key", GOOGLE_GEMINI_BASE_URL: model.url, NO_COLOR: "1", VITEST: "", ...PATIENT_HOOKS });
  for (const key of Object.keys(process.env)) if (/^(GEMINI|GOOGLE)_/.test(key) && !(key in env)) env[key] = "";
  return env;
}

describe("Baton in the real Gemini CLI", () => {
  it("baton install gemini writes ~/.gemini/settings.json; a second run changes nothing", async () => {
    writeUserConfig(home, { url: world.server.url, token: world.tokens.ana! });
    mkdirSync(path.join(home, ".gemini"), { recursive: true });
    // What the user has already: the auth choice Gemini CLI asks for at its first start (else "Invalid auth method selected").
    writeFileSync(path.join(home, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }, null, 2));
    const install = await runProcess(process.execPath, [BATON, "install", "gemini", "--command", COMMAND], { env: homeEnv(home), cwd: repo });
    expect(install.code, install.stdout + install.stderr).toBe(0);
    expect(install.stdout).toContain("Trust folder");
    const settings = JSON.parse(readFileSync(path.join(home, ".gemini", "settings.json"), "utf8"));
    expect(settings.security).toEqual({ auth: { selectedType: "gemini-api-key" } });
    expect(Object.keys(settings.hooks)).toEqual(["SessionStart", "BeforeAgent", "AfterAgent", "SessionEnd"]);
    const again = await runProcess(process.execPath, [BATON, "install", "gemini", "--command", COMMAND, "--dry-run"], { env: homeEnv(home), cwd: repo });
    expect(again.stdout).toMatch(/No changes/);
    // baton doctor finds Gemini CLI by its ~/.gemini and sees Baton in its user configuration.
    const doctor = await runProcess(process.execPath, [BATON, "doctor"], { env: homeEnv(home), cwd: repo });
    const agents = (JSON.parse(doctor.stdout) as { agents: { agent: string; found: string | null; installed: Record<string, boolean> }[] }).agents;
    expect(agents.find((a) => a.agent === "gemini")).toMatchObject({ found: path.join(home, ".gemini"), installed: { user: true, repo: false } });
  });

  it("a gemini -p session gets Baton's context and the prompt's learning, does real work, and leaves a handoff and a proposal", async () => {
    // What "Trust folder" in Gemini's trust dialog records: without it Gemini CLI runs no hooks, and -p stops (exit 55).
    writeFileSync(path.join(home, ".gemini", "trustedFolders.json"), JSON.stringify({ [repo]: "TRUST_FOLDER" }, null, 2));
    const before = (await handoffs()).length;
    const session = await runProcess(gemini, ["-m", "gemini-2.5-flash", "--approval-mode", "yolo", "-p", PROMPT], { env: geminiEnv(), cwd: repo, timeoutMs: GEMINI_MS });
    expect(session.code, session.stdout + session.stderr).toBe(0);
    expect(session.stdout).toContain("the build check passes now");
    expect(readFileSync(path.join(repo, "notes.txt"), "utf8")).toBe("Keys rotate every Tuesday.\n");
    expect(model.requests.length).toBeGreaterThanOrEqual(4);
    // The transcript this run wrote; RECORD_GEMINI_TRANSCRIPT=<file> keeps it (test/fixtures/agents/gemini/session-e2e.jsonl).
    const chats = path.join(home, ".gemini", "tmp");
    const files = readdirSync(chats, { recursive: true }).map(String).filter((f) => f.endsWith(".jsonl"));
    expect(files).toHaveLength(1);
    if (process.env.RECORD_GEMINI_TRANSCRIPT) writeFileSync(process.env.RECORD_GEMINI_TRANSCRIPT, readFileSync(path.join(chats, files[0]!), "utf8").replaceAll(tmp.dir, "/tmp/baton-agent-gemini"));

    // (a) The SessionStart hook's context, in the first request, wrapped by Gemini CLI.
    const first = JSON.stringify(model.requests[0]!.body.contents);
    expect(first).toContain("<hook_context>");
    expect(first).toContain(MARKER);
    // (b) The BeforeAgent hook's context: the learning the start did not give, relevant to the prompt.
    expect(first).toContain(JSON.stringify(`## Learnings relevant to this prompt (1 not given earlier in this session)\n- ${FLAMINGO}`).slice(1, -1));
    // Baton's MCP tools, through `baton mcp`, among the tools Gemini CLI offers the model.
    const tools = (model.requests[0]!.body.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name));
    for (const tool of ["search_learnings", "propose_learning", "write_handoff"]) expect(tools.some((name) => name.endsWith(tool)), tools.join(", ")).toBe(true);

    // (c) The handoff, from Gemini's own transcript: the file it wrote, the command that failed and then passed.
    // The detached worker posts it after Gemini CLI has exited: poll.
    const latest = await waitFor("the session's handoff", async () => (await handoffs()).find((h) => h.markdown.includes("notes.txt")));
    expect((await handoffs()).length).toBeGreaterThan(before);
    expect(latest.markdown).toContain("- notes.txt (written)");
    expect(latest.markdown).toContain("test -f build.ok");
    expect(latest.markdown).toContain("How do the flamingo signing keys rotate?");
    expect(latest.markdown).not.toContain(MARKER);
    const log = () => readFileSync(path.join(home, ".cache/baton/hook.log"), "utf8");
    if ("agent" in latest) {
      // (d) The server keeps which agent produced them; the proposal from the prompt's statement arrives.
      expect(latest.agent).toBe("gemini");
      const made = await waitFor("the proposal from the prompt's statement", async () => (await proposals()).find((p) => p.content === STATEMENT));
      expect(made.agent).toBe("gemini");
    } else {
      // Until the server takes provenance, it refuses a proposal that carries its agent: the worker made it and sent it.
      await waitFor("the worker's proposal", () => /a proposal from session [\w-]+ refused \(400\).*Unrecognized keys: \\"agent\\", \\"model\\"/.test(log()));
    }
    // AfterAgent (stop) wrote it at the turn's end, SessionEnd wrote it again: one handoff for the session.
    expect((await handoffs()).filter((h) => h.markdown.includes("notes.txt"))).toHaveLength(1);
    // The Stop worker logs its counts after its last send: its handoff can be on the server a moment before.
    await waitFor("the Stop worker's counts in hook.log", () => /session-end worker \(Stop\): sent [1-9]/.test(log()));
  }, 150_000);
});
