import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillerSeed } from "../support/filler-seed";
import { requestText, startOpenAiChatDouble, toolResultCount, type ChatRequest, type OpenAiChatDouble } from "../support/model-doubles/openai-chat";
import { runProcess } from "../support/run-process";
import { ROOT, tempDir } from "../support/server";
import { testWorld } from "../support/world";
import { homeEnv, makeRepo, PATIENT_HOOKS, removeAfterWorkers } from "../fixtures/cli/cli-env";

// The real opencode from npm (.tools/opencode, scripts/ensure-agents.sh), offline against a local double
// of the Chat Completions API whose scripted tool calls make it write a file and run a command that
// fails, then passes; Baton installed with `baton install opencode` (its plugin file and MCP server)
// against the real built server.

const world = testWorld({ users: ["ana"], projects: { web: "ana" }, members: [], tokens: {} });
const tmp = tempDir("baton-agent-opencode-");
afterAll(() => removeAfterWorkers(() => rmSync(tmp.dir, { recursive: true, force: true })));

const MARKER = "Did: the opencode marker handoff.";
/** Older than a store's worth of newer learnings and matching no hint: not in the session start's context, only a prompt's. */
const FLAMINGO = "The flamingo signing keys rotate through the vault job every Tuesday";
const STATEMENT = "Always run the linter before committing.";
const PROMPT = `How do the flamingo signing keys rotate? Write notes.md about it. ${STATEMENT}`;
const TOOLS = path.join(ROOT, ".tools/opencode");
const OPENCODE = path.join(TOOLS, "node_modules/.bin/opencode");
const BATON = `node ${path.join(ROOT, "cli/bin/baton.mjs")}`;

let repo: string;
let model: OpenAiChatDouble;

beforeAll(async () => {
  // Installs opencode-ai and @opencode-ai/plugin from npm into .tools/ the first time (scripts/test.sh does it up front).
  execFileSync("bash", [path.join(ROOT, "scripts/ensure-agents.sh"), "opencode"], { stdio: ["ignore", "inherit", "inherit"] });
  repo = makeRepo(path.join(tmp.dir, "src", "web"), { remote: "git@github.com:acme/web.git", commits: ["Add the token list"] });
  expect((await world.as("ana")("POST", "/api/projects/web/handoffs", { markdown: MARKER, branch: "main" })).status).toBe(201);
  expect((await world.as("ana")("POST", "/api/learnings", { kind: "insight", content: FLAMINGO, project: "web", createdAt: "2025-01-01T00:00:00.000Z" })).status).toBe(201);
  expect((await world.as("ana")("POST", "/api/seed/import", fillerSeed(150))).status).toBe(200);
  // opencode asks the model for the session's title beside the work itself, in no fixed order: the work's
  // reply is chosen by how many tool results the conversation carries so far.
  const work = [
    { toolCalls: [{ name: "write", arguments: { filePath: path.join(repo, "notes.md"), content: "# Flamingo keys\nThey rotate every Tuesday.\n" } }] },
    { toolCalls: [{ name: "bash", arguments: { command: "test -s notes.txt", description: "Check the notes" } }] },
    { toolCalls: [{ name: "bash", arguments: { command: "test -s notes.md", description: "Check the notes again" } }] },
    { text: "notes.md is written: the flamingo keys rotate every Tuesday." },
  ];
  model = await startOpenAiChatDouble((request) => {
    if (isTitle(request)) return { text: "Flamingo keys" };
    if (isSummary(request)) return { text: SUMMARY };
    return work[Math.min(toolResultCount(request), work.length - 1)]!;
  });
}, 300_000);
afterAll(() => model?.stop());

/** opencode's user config: the double as its only provider, and @opencode-ai/plugin already installed there as opencode itself installs it (else it npm-installs it at start). */
function opencodeHome(home: string, limit?: { context: number; output: number }): void {
  const dir = path.join(home, ".config/opencode");
  mkdirSync(dir, { recursive: true });
  const models = { "double-1": { name: "Double 1", ...(limit ? { limit } : {}) } };
  const provider = { npm: "@ai-sdk/openai-compatible", name: "Double", options: { baseURL: model.url, apiKey: "sk-double" }, models };
  writeFileSync(path.join(dir, "opencode.json"), JSON.stringify({ $schema: "https://opencode.ai/config.json", provider: { double: provider }, model: "double/double-1" }, null, 2));
  for (const file of ["package.json", "package-lock.json"]) copyFileSync(path.join(TOOLS, "config", file), path.join(dir, file));
  symlinkSync(path.join(TOOLS, "config/node_modules"), path.join(dir, "node_modules"));
}

const isTitle = (request: ChatRequest) => requestText(request).includes("You are a title generator");
/** opencode's compaction: a request to its summarization agent. */
const SUMMARY = "Summary: notes.md was written.";
const isSummary = (request: ChatRequest) => requestText(request).includes("You are a context summarization agent");
const messages = (i: number) => model.requests[i]!.body.messages as { role: string; content: unknown }[];

describe("GET /cli/opencode-plugin.js", () => {
  it("is public and the plugin `baton install opencode` writes, of the server's version, importing node built-ins only", async () => {
    const res = await fetch(`${world.server.url}/cli/opencode-plugin.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const served = await res.text();
    const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(served.startsWith(`// Baton opencode plugin ${version}:`)).toBe(true);
    const imports = [...served.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(2);
    expect(imports.filter((i) => !i!.startsWith("node:"))).toEqual([]);
    const home = path.join(tmp.dir, "home-served");
    const env = homeEnv(home, { BATON_URL: world.server.url });
    const install = await runProcess(process.execPath, [path.join(ROOT, "cli/bin/baton.mjs"), "install", "opencode", "--command", BATON], { env, cwd: ROOT });
    expect(install.code, install.stderr).toBe(0);
    const written = readFileSync(path.join(home, ".config/opencode/plugins/baton.js"), "utf8");
    // The same file but for its settings line: the command to run and the time limits.
    const unbaked = (text: string) => text.replace(/^var BAKED = .*$/m, "");
    expect(written).not.toBe(served);
    expect(unbaked(written)).toBe(unbaked(served));
    expect(written.match(/^var BAKED = .*$/m)![0]).toContain(BATON);
  });
});

describe("opencode with Baton's plugin", () => {
  it("baton install opencode, then opencode run: Baton's context and the prompt's learning reach the model, and the session's handoff and a proposal arrive", async () => {
    const home = path.join(tmp.dir, "home");
    const env = homeEnv(home, { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana!, OPENCODE_DISABLE_MODELS_FETCH: "true", OPENCODE_DISABLE_AUTOUPDATE: "true", ...PATIENT_HOOKS });
    opencodeHome(home);
    const install = await runProcess(process.execPath, [path.join(ROOT, "cli/bin/baton.mjs"), "install", "opencode", "--command", BATON], { env, cwd: repo });
    expect(install.code, install.stdout + install.stderr).toBe(0);
    const config = JSON.parse(readFileSync(path.join(home, ".config/opencode/opencode.json"), "utf8")) as Record<string, Record<string, unknown>>;
    expect(config.mcp!.baton).toEqual({ type: "local", command: ["node", path.join(ROOT, "cli/bin/baton.mjs"), "mcp"], enabled: true });
    expect(Object.keys(config.provider!)).toEqual(["double"]);

    const before = (await world.as("ana")("GET", "/api/projects/web/handoffs")).json.items.length as number;
    // opencode takes its project directory from PWD, which the test process's environment would set to the checkout.
    const run = await runProcess(OPENCODE, ["run", PROMPT], { env: { ...env, PWD: repo }, cwd: repo, timeoutMs: 120_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(readFileSync(path.join(repo, "notes.md"), "utf8")).toContain("Tuesday");

    // (a) the session-start context is in the system prompt of the work's requests.
    const work = model.requests.map((_, i) => i).filter((i) => !isTitle(model.requests[i]!));
    expect(work.length).toBeGreaterThanOrEqual(4);
    for (const i of work) expect(JSON.stringify(messages(i).filter((m) => m.role === "system"))).toContain(MARKER);
    // (b) the prompt stage's learning joins the user's message; the start did not give it.
    const user = JSON.stringify(messages(work[0]!).filter((m) => m.role === "user"));
    expect(user).toContain(FLAMINGO);
    expect(JSON.stringify(messages(work[0]!).filter((m) => m.role === "system"))).not.toContain(FLAMINGO);
    // Baton's MCP server (baton mcp, registered by the install) offers its tools to the model.
    const tools = ((model.requests[work[0]!]!.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
    for (const tool of ["search_learnings", "propose_learning", "write_handoff"]) expect(tools.some((name) => name.startsWith("baton") && name.endsWith(tool)), tools.join(", ")).toBe(true);

    // (c) the detached stop hook, after opencode exited: a handoff naming the file and the commands, and the user's statement as a proposal.
    type Handoff = { markdown: string; agent?: string };
    const handoffs = async () => (await world.as("ana")("GET", "/api/projects/web/handoffs")).json.items as Handoff[];
    await expect.poll(async () => (await handoffs()).length, { timeout: 30_000, interval: 250 }).toBeGreaterThan(before);
    const latest = (await handoffs())[0]!;
    expect(latest.markdown).toContain("notes.md");
    expect(latest.markdown).toContain("test -s notes.txt");
    expect(latest.markdown).toContain("test -s notes.md");
    if ("agent" in latest) expect(latest.agent).toBe("opencode");
    // The session as the plugin wrote it for the stop hook (test/fixtures/agents/opencode/session.jsonl is one, recorded with BATON_RECORD_OPENCODE).
    const sessions = readdirSync(path.join(home, ".cache/baton/opencode")).filter((f) => f.endsWith(".jsonl"));
    expect(sessions).toHaveLength(1);
    if (process.env.BATON_RECORD_OPENCODE) copyFileSync(path.join(home, ".cache/baton/opencode", sessions[0]!), process.env.BATON_RECORD_OPENCODE);
    type Proposal = { content: string; agent?: string };
    await expect
      .poll(async () => ((await world.as("ana")("GET", "/api/proposals?limit=100")).json.items as Proposal[]).map((p) => p.content).join("\n"), { timeout: 30_000, interval: 250 })
      .toContain("linter before committing");
    const proposal = ((await world.as("ana")("GET", "/api/proposals?limit=100")).json.items as Proposal[]).find((p) => p.content.includes("linter"))!;
    if ("agent" in proposal) expect(proposal.agent).toBe("opencode");

  }, 180_000);

  it("a compaction: the pre-compact hook posts a checkpoint of the session so far before opencode summarises it", async () => {
    const home = path.join(tmp.dir, "home-compact");
    const env = homeEnv(home, { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana!, OPENCODE_DISABLE_MODELS_FETCH: "true", OPENCODE_DISABLE_AUTOUPDATE: "true", PWD: repo, ...PATIENT_HOOKS });
    // A context of 16 tokens: the double's first answer (16 tokens of usage) fills it, and opencode compacts.
    opencodeHome(home, { context: 16, output: 4 });
    // Every answer of the double would fill the context again: no "continue" turn after the compaction (a test-only plugin).
    const noContinue = 'export const NoContinue = async () => ({ "experimental.compaction.autocontinue": async (_input, output) => { output.enabled = false; } });\n';
    mkdirSync(path.join(home, ".config/opencode/plugins"), { recursive: true });
    writeFileSync(path.join(home, ".config/opencode/plugins/no-continue.js"), noContinue);
    const install = await runProcess(process.execPath, [path.join(ROOT, "cli/bin/baton.mjs"), "install", "opencode", "--command", BATON], { env, cwd: repo });
    expect(install.code, install.stderr).toBe(0);
    const from = model.requests.length;
    const run = await runProcess(OPENCODE, ["run", "Write notes.md about the flamingo keys."], { env, cwd: repo, timeoutMs: 60_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(model.requests.slice(from).filter(isSummary), "opencode did not compact").toHaveLength(1);
    const log = readFileSync(path.join(home, ".cache/baton/hook.log"), "utf8");
    expect(log).toMatch(/pre-compact: checkpoint sent 1, spooled 0, refused 0/);
  }, 90_000);
});
