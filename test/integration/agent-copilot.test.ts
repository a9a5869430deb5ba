import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillerSeed } from "../support/filler-seed";
import { requestText, startOpenAiChatDouble, toolResultCount, type ChatReply, type ChatRequest, type OpenAiChatDouble } from "../support/model-doubles/openai-chat";
import { runProcess } from "../support/run-process";
import { ROOT, tempDir } from "../support/server";
import { testWorld } from "../support/world";
import { homeEnv, makeRepo, PATIENT_HOOKS, removeAfterWorkers, writeUserConfig } from "../fixtures/cli/cli-env";

// GitHub Copilot CLI from npm (pinned in scripts/ensure-agents.sh), run offline with `copilot -p`
// against a local double of the Chat Completions API that scripts real work (a file written, a
// command failing then passing), with Baton installed by `baton install copilot` into a throwaway HOME.

const world = testWorld({ users: ["ana"], projects: { web: "ana" }, members: [], tokens: {} });
const tmp = tempDir("baton-agent-copilot-");
afterAll(() => removeAfterWorkers(() => rmSync(tmp.dir, { recursive: true, force: true })));

const BATON = path.join(ROOT, "cli/bin/baton.mjs");
const MARKER = "Did: the copilot marker handoff.";
/** Older than a store's worth of newer learnings and matching no hint: not in the session start's context, only a prompt's. */
const FLAMINGO = "The flamingo signing keys rotate through the vault job every Tuesday";
const PROMPT = "Write notes.md on how the flamingo signing keys rotate. Always run the linter before committing.";
const FAILING = "cat notes-draft.md";
const PASSING = "cat notes.md";
/** What Copilot asks the model for when it compacts the conversation. */
const SUMMARY_REQUEST = "create a detailed summary of the conversation so far";

/**
 * The model's side of the sessions. "work": write the file, run a command that fails, then one that
 * passes, then say so. "compact": print a long output (which fills the small context the run is given),
 * write the summary Copilot asks for, then stop.
 */
function script(repo: string, mode: () => "work" | "compact") {
  return (request: ChatRequest): ChatReply => {
    if (requestText(request).includes(SUMMARY_REQUEST)) return { text: "Summary: the numbers were printed." };
    if (mode() === "compact") return toolResultCount(request) === 0 && !requestText(request).includes("Summary: the numbers") ? { toolCalls: [{ name: "bash", arguments: { command: "seq 1 3000", description: "Print the numbers" } }] } : { text: "Numbers printed." };
    switch (toolResultCount(request)) {
      case 0:
        return { text: "Writing the notes.", toolCalls: [{ name: "create", arguments: { path: path.join(repo, "notes.md"), file_text: "# Key rotation\nEvery Tuesday.\n" } }] };
      case 1:
        return { toolCalls: [{ name: "bash", arguments: { command: FAILING, description: "Show the draft" } }] };
      case 2:
        return { toolCalls: [{ name: "bash", arguments: { command: PASSING, description: "Show the notes" } }] };
      default:
        return { text: "notes.md is written." };
    }
  };
}

type Handoff = { markdown: string; agent?: string };
type Proposal = { content: string; agent?: string };

describe("Baton in the real GitHub Copilot CLI", () => {
  let copilot: string;
  let model: OpenAiChatDouble;
  let repo: string;
  const home = path.join(tmp.dir, "home");
  let env: Record<string, string>;
  let mode: "work" | "compact" = "work";

  beforeAll(async () => {
    // Installs @github/copilot into .tools/copilot the first time (scripts/test.sh does it up front).
    copilot = execFileSync("bash", [path.join(ROOT, "scripts/ensure-agents.sh"), "copilot"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
    repo = makeRepo(path.join(tmp.dir, "src", "web"), { remote: "git@github.com:acme/web.git", commits: ["Add the token list"] });
    model = await startOpenAiChatDouble(script(repo, () => mode));
    expect((await world.as("ana")("POST", "/api/projects/web/handoffs", { markdown: MARKER, branch: "main" })).status).toBe(201);
    expect((await world.as("ana")("POST", "/api/learnings", { kind: "insight", content: FLAMINGO, project: "web", createdAt: "2025-01-01T00:00:00.000Z" })).status).toBe(201);
    expect((await world.as("ana")("POST", "/api/seed/import", fillerSeed(150))).status).toBe(200);
    // The token in the CLI's own config, not the environment: the MCP bridge Copilot starts must find it there.
    writeUserConfig(home, { url: world.server.url, token: world.tokens.ana! });
    env = homeEnv(home, {
      // The package unpacked once by ensure-agents.sh (235 MB), not again into this HOME.
      COPILOT_PKG_CACHE_HOME: path.join(ROOT, ".tools/copilot/cache/copilot"),
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_BASE_URL: model.url,
      COPILOT_PROVIDER_API_KEY: "x",
      COPILOT_MODEL: "gpt-4.1",
      ...PATIENT_HOOKS,
    });
    for (const key of Object.keys(process.env)) if (/^(COPILOT|GH|GITHUB)_/.test(key) && !(key in env)) env[key] = "";
  }, 300_000);
  afterAll(() => model?.stop());

  it("baton install copilot, then copilot -p: the start context and the prompt's learning reach the model, Baton's MCP tools are offered, and the session's handoff and proposal arrive", async () => {
    const install = await runProcess(process.execPath, [BATON, "install", "copilot", "--command", `node ${BATON}`], { env, cwd: repo });
    expect(install.code, install.stdout + install.stderr).toBe(0);
    const hooks = JSON.parse(readFileSync(path.join(home, ".copilot/hooks/baton.json"), "utf8")) as { hooks: Record<string, { bash: string; timeoutSec: number }[]> };
    expect(Object.keys(hooks.hooks).sort()).toEqual(["preCompact", "sessionEnd", "sessionStart", "userPromptSubmitted"]);
    const again = await runProcess(process.execPath, [BATON, "install", "copilot", "--dry-run", "--command", `node ${BATON}`], { env, cwd: repo });
    expect(again.stdout).toContain("No changes");

    const session = await runProcess(copilot, ["-p", PROMPT, "--allow-all-tools", "--no-auto-update"], { env, cwd: repo, timeoutMs: 90_000 });
    expect(session.code, session.stdout + session.stderr).toBe(0);
    expect(session.stdout).toContain("notes.md is written.");
    expect(readFileSync(path.join(repo, "notes.md"), "utf8")).toContain("Every Tuesday");

    // (a) sessionStart: Copilot sends the hook's context as a message of its own, before the prompt.
    const first = model.requests[0]!;
    const texts = first.body.messages as { role: string; content: unknown }[];
    const start = texts.find((m) => typeof m.content === "string" && m.content.includes(MARKER));
    expect(start, `no message carried the start context: ${requestText(first).slice(0, 2000)}`).toBeDefined();
    expect(String(start!.content)).not.toContain(FLAMINGO);
    // (b) userPromptSubmitted: the learning the start did not give, in the user's message inside <system_reminder>.
    const prompt = texts.find((m) => typeof m.content === "string" && m.content.includes(PROMPT));
    expect(String(prompt?.content)).toMatch(new RegExp(`<system_reminder>[\\s\\S]*${FLAMINGO}[\\s\\S]*</system_reminder>`));
    // Baton's MCP server (`baton mcp`, its token from the CLI's config) is offered with its tools.
    const tools = ((first.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
    for (const tool of ["search_learnings", "propose_learning", "write_handoff"]) expect(tools.some((name) => name.includes("baton") && name.endsWith(tool)), tools.join(", ")).toBe(true);
    // The scripted work really ran: the failing command's exit code came back to the model.
    expect(requestText(model.requests.at(-1)!)).toMatch(/exit code 1/);

    // (c) sessionEnd: the detached worker reads Copilot's own log and posts the handoff and the proposal.
    const handoffs = async () => (await world.as("ana")("GET", "/api/projects/web/handoffs")).json.items as Handoff[];
    await expect.poll(async () => (await handoffs()).some((h) => h.markdown.includes("notes.md")), { timeout: 20_000 }).toBe(true);
    const handoff = (await handoffs()).find((h) => h.markdown.includes("notes.md"))!;
    expect(handoff.markdown).toContain(FAILING);
    expect(handoff.markdown).toContain(PASSING);
    // The user's ask as typed, not the context Copilot added to it.
    expect(handoff.markdown).not.toContain("system_reminder");
    const log = () => (existsSync(path.join(home, ".cache/baton/hook.log")) ? readFileSync(path.join(home, ".cache/baton/hook.log"), "utf8") : "");
    await expect.poll(log, { timeout: 20_000 }).toMatch(/session-end worker \(SessionEnd\): sent [1-9]/);
    const linter = (p: Proposal) => /run the linter before committing/i.test(p.content);
    const proposals = async () => ((await world.as("ana")("GET", "/api/proposals?limit=100")).json.items as Proposal[]).filter(linter);
    if ("agent" in handoff) {
      // (d) The server keeps which agent produced them.
      expect(handoff.agent).toBe("copilot");
      await expect.poll(async () => (await proposals()).length, { timeout: 20_000 }).toBe(1);
      expect((await proposals())[0]!.agent).toBe("copilot");
    } else {
      // Until the server takes provenance, it refuses a proposal that carries its agent: the worker made it and sent it.
      expect(log()).toMatch(/a proposal from session [\w-]+ refused \(400\).*Unrecognized keys: \\"agent\\", \\"model\\"/);
    }
  }, 150_000);

  it("preCompact is a real compaction event: when Copilot compacts (here forced by a small context), Baton's pre-compact hook posts a checkpoint", async () => {
    mode = "compact";
    const log = path.join(home, ".cache/baton/hook.log");
    const session = await runProcess(copilot, ["-p", "Print the numbers up to 3000.", "--allow-all-tools", "--no-auto-update"], {
      // Copilot's own prompt and tools take about 10,500 tokens: one long output passes its compaction threshold.
      env: { ...env, COPILOT_PROVIDER_MAX_PROMPT_TOKENS: "16000" },
      cwd: repo,
      timeoutMs: 60_000,
    });
    expect(session.code, session.stdout + session.stderr).toBe(0);
    expect(model.requests.some((r) => requestText(r).includes(SUMMARY_REQUEST))).toBe(true);
    expect(readFileSync(log, "utf8")).toMatch(/pre-compact: checkpoint sent 1/);
  }, 90_000);
});
