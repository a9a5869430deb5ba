import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_LABELS } from "../../lib/rules";
import { fillerSeed } from "../support/filler-seed";
import { startResponsesDouble, type ResponsesDouble } from "../support/model-doubles/openai-responses";
import { runProcess } from "../support/run-process";
import { ROOT, tempDir } from "../support/server";
import { testWorld } from "../support/world";
import { fixture, homeEnv, hookContext, makeRepo, PATIENT_HOOKS, removeAfterWorkers, writeUserConfig } from "../fixtures/cli/cli-env";

// The real Codex CLI from npm (scripts/ensure-agents.sh puts it in .tools/codex), offline against a
// double of OpenAI's Responses API that scripts its tool calls, with Baton installed by
// `baton install codex` into a throwaway HOME: Baton's context reaches the model, Codex runs the hooks
// without --dangerously-bypass-hook-trust (the installer recorded their trust), and the session's
// handoff and proposal arrive from Codex's own transcript.

const world = testWorld({ users: ["ana"], projects: { web: "ana" }, members: [], tokens: {} });
const tmp = tempDir("baton-agent-codex-");
afterAll(() => removeAfterWorkers(tmp.remove));

const BATON = path.join(ROOT, "cli/bin/baton.mjs");
const MARKER = "Did: the Codex marker handoff.";
/** Older than a store's worth of newer learnings and matching no hint: not in the session start's context, only a prompt's. */
const FLAMINGO = "The flamingo signing keys rotate through the vault job every Tuesday";
const PROMPT = "How do the flamingo signing keys rotate? Write it down in notes.txt. Always run the linter before committing.";
const PATCH = "*** Begin Patch\n*** Add File: notes.txt\n+The flamingo keys rotate on Tuesdays.\n*** End Patch\n";
/** Codex's own limit for the whole run: a hook that hangs fails the test instead of hanging it. */
const CODEX_MS = 60_000;

let codex: string;
let model: ResponsesDouble;
let repo: string;
let home: string;

/** Codex with its own HOME, its model API the double, nothing of the machine's OpenAI or Codex settings. */
function codexEnv(): Record<string, string> {
  const env = homeEnv(home, { DOUBLE_API_KEY: "sk-double", ...PATIENT_HOOKS });
  for (const key of Object.keys(process.env)) if (/^(OPENAI|CODEX)_/.test(key)) env[key] = "";
  return env;
}

beforeAll(async () => {
  codex = execFileSync("bash", [path.join(ROOT, "scripts/ensure-agents.sh"), "codex"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  model = await startResponsesDouble([
    { custom: "apply_patch", input: PATCH },
    { call: "exec_command", arguments: { cmd: "test -f missing.txt" } },
    { call: "exec_command", arguments: { cmd: "test -f notes.txt && echo notes there" } },
    { text: "The notes are in notes.txt." },
  ]);
  repo = makeRepo(path.join(tmp.dir, "src", "web"), { remote: "git@github.com:acme/web.git", commits: ["Add the token list"] });
  home = path.join(tmp.dir, "home");
  const ana = world.as("ana");
  // The handoff a Claude Code session left (its hooks say which agent wrote it): the other way round.
  expect((await ana("POST", "/api/projects/web/handoffs", { markdown: MARKER, branch: "main", agent: "claude", model: "claude-sonnet-4-5" })).status).toBe(201);
  expect((await ana("POST", "/api/learnings", { kind: "insight", content: FLAMINGO, project: "web", createdAt: "2025-01-01T00:00:00.000Z" })).status).toBe(201);
  expect((await ana("POST", "/api/seed/import", fillerSeed(150))).status).toBe(200);
  writeUserConfig(home, { url: world.server.url, token: world.tokens.ana });
  // The user's own Codex config, which the installer must keep: the model provider is the double.
  mkdirSync(path.join(home, ".codex"), { recursive: true });
  writeFileSync(
    path.join(home, ".codex", "config.toml"),
    [
      "# Offline: the model is a local double.",
      'model = "gpt-5.5"',
      'model_provider = "double"',
      "",
      "[model_providers.double]",
      'name = "double"',
      `base_url = "${model.url}"`,
      'env_key = "DOUBLE_API_KEY"',
      'wire_api = "responses"',
      "",
    ].join("\n"),
  );
}, 300_000);
afterAll(() => model?.stop());

/** `codex app-server`'s answer to hooks/list: each hook Codex sees, with its trust. */
async function listHooks(): Promise<{ command: string; eventName: string; trustStatus: string }[]> {
  const server = spawn(codex, ["app-server"], { env: { ...process.env, ...codexEnv() }, cwd: repo, stdio: ["pipe", "pipe", "ignore"] });
  const send = (message: unknown) => server.stdin.write(JSON.stringify(message) + "\n");
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("codex app-server did not answer hooks/list")), 20_000);
      let buffer = "";
      server.stdout.on("data", (data: Buffer) => {
        buffer += data.toString();
        for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
          const message = JSON.parse(buffer.slice(0, i)) as { id?: number; result?: { data: { hooks: never[] }[] } };
          buffer = buffer.slice(i + 1);
          if (message.id === 1) {
            send({ method: "initialized" });
            send({ id: 2, method: "hooks/list", params: { cwds: [repo] } });
          } else if (message.id === 2) {
            clearTimeout(timer);
            resolve(message.result!.data[0]!.hooks);
          }
        }
      });
      send({ id: 1, method: "initialize", params: { clientInfo: { name: "baton-test", version: "0.0.0" } } });
    });
  } finally {
    server.kill();
  }
}

/** What the hooks wrote to hook.log so far ("" before the first line). */
function hookLog(): string {
  const file = path.join(home, ".cache/baton/hook.log");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}

describe("Baton in the real Codex CLI", () => {
  const baton = (args: string[]) => runProcess(process.execPath, [BATON, ...args], { env: codexEnv(), cwd: repo });

  it("baton install codex merges into ~/.codex, records the hooks' trust as Codex computes it, and changes nothing the second time", async () => {
    const before = readFileSync(path.join(home, ".codex", "config.toml"), "utf8");
    const install = await baton(["install", "codex", "--command", `node ${BATON}`]);
    expect(install.code, install.stdout + install.stderr).toBe(0);
    const config = readFileSync(path.join(home, ".codex", "config.toml"), "utf8");
    expect(config.startsWith(before)).toBe(true);
    expect(config).toContain(`[mcp_servers.baton]\ncommand = "node"\nargs = [${JSON.stringify(BATON)}, "mcp"]`);
    // Codex reads the MCP entry as a stdio server running `baton mcp`.
    const servers = JSON.parse((await runProcess(codex, ["mcp", "list", "--json"], { env: codexEnv(), cwd: repo })).stdout) as { name: string; transport: { command: string; args: string[] } }[];
    expect(servers.find((s) => s.name === "baton")?.transport).toMatchObject({ command: "node", args: [BATON, "mcp"] });

    const hooks = (await listHooks()).filter((h) => h.command.includes("--agent codex"));
    expect(hooks.map((h) => `${h.eventName} ${h.trustStatus}`).sort()).toEqual(["preCompact trusted", "sessionEnd trusted", "sessionStart trusted", "userPromptSubmit trusted"]);

    const again = await baton(["install", "codex", "--command", `node ${BATON}`, "--dry-run"]);
    expect(again.stdout).toBe("No changes: Baton is already installed here.\n");
  }, 60_000);

  it("a codex exec session gets Baton's context and the prompt's learning, and leaves a handoff and a proposal from its own transcript", async () => {
    const ana = world.as("ana");
    const handoffsBefore = (await ana("GET", "/api/projects/web/handoffs")).json.items.length as number;
    const session = await runProcess(codex, ["exec", "-s", "danger-full-access", "--color", "never", PROMPT], { env: codexEnv(), cwd: repo, timeoutMs: CODEX_MS });
    expect(session.code, session.stdout + session.stderr).toBe(0);
    expect(session.stderr).not.toContain("bypass-hook-trust");
    expect(readFileSync(path.join(repo, "notes.txt"), "utf8")).toContain("flamingo");
    expect(session.stdout).toContain("The notes are in notes.txt.");
    if (process.env.BATON_RECORD_FIXTURES) recordRollout();

    // (a) The SessionStart context, a developer message of the first request.
    const first = JSON.stringify(model.requests[0]!.body);
    expect(first).toContain(MARKER);
    // A Claude Code session's handoff is this Codex session's context, and says who wrote it.
    expect(first).toMatch(/## Last handoff \([^)]*by ana, Claude Code\)/);
    // (b) The UserPromptSubmit context: the learning the start did not give, relevant to the prompt.
    expect(first).toContain(JSON.stringify(`## Learnings relevant to this prompt (1 not given earlier in this session)\n- ${FLAMINGO}`).slice(1, -1));
    // The script ran to its end: a patch, a failing command, a passing one, the last text.
    expect(model.requests.length).toBeGreaterThanOrEqual(4);

    // (c) SessionEnd: the detached worker posts the handoff read from Codex's rollout, and the proposal.
    await expect.poll(async () => (await ana("GET", "/api/projects/web/handoffs")).json.items.length, { timeout: 20_000 }).toBeGreaterThan(handoffsBefore);
    const handoff = (await ana("GET", "/api/projects/web/handoffs")).json.items[0] as { markdown: string; agent?: string; model?: string };
    expect(handoff.markdown).toContain("notes.txt");
    expect(handoff.markdown).toContain("test -f missing.txt");
    await expect
      .poll(async () => ((await ana("GET", "/api/proposals?project=web")).json.items as { content: string }[]).map((p) => p.content), { timeout: 20_000 })
      .toContain("Always run the linter before committing.");
    const proposal = ((await ana("GET", "/api/proposals?project=web")).json.items as { content: string; agent?: string; model?: string }[]).find((p) => p.content.startsWith("Always run the linter"))!;
    // (d) Which agent (and model, which Codex's hooks and rollout name) produced them.
    expect([handoff.agent, handoff.model]).toEqual(["codex", "gpt-5.5"]);
    expect([proposal.agent, proposal.model]).toEqual(["codex", "gpt-5.5"]);

    // The worker logs its counts after its last send: the proposal can be on the server a moment before.
    await expect.poll(hookLog, { timeout: 10_000 }).toMatch(/session-end worker \(SessionEnd\): sent [2-9], spooled 0, refused 0/);
  }, 90_000);

  it("the Codex session's handoff is a Claude Code session's next context, labelled Codex CLI", async () => {
    const input = JSON.stringify({ ...JSON.parse(fixture("hooks/session-start.json")), cwd: repo });
    const start = await runProcess(process.execPath, [BATON, "hook", "session-start"], { env: codexEnv(), cwd: repo, input });
    expect(start.code).toBe(0);
    const context = hookContext(start.stdout);
    expect(context).toContain("notes.txt");
    expect(context).toMatch(new RegExp(`## Last handoff \\([^)]*${AGENT_LABELS.codex}[^)]*\\)`));
  }, 30_000);

  it("before Codex compacts a session (a real compaction, not every turn), the pre-compact hook posts the checkpoint", async () => {
    model.script([{ call: "exec_command", arguments: { cmd: "echo checkpoint" } }, { text: "Compacted and done." }]);
    model.tokensPerAnswer = 5000;
    try {
      const args = ["exec", "-s", "danger-full-access", "--color", "never", "-c", "model_auto_compact_token_limit=1000", "Read the flamingo notes again."];
      const session = await runProcess(codex, args, { env: codexEnv(), cwd: repo, timeoutMs: CODEX_MS });
      expect(session.code, session.stdout + session.stderr).toBe(0);
      expect(session.stdout).toContain("Compacted and done.");
    } finally {
      model.tokensPerAnswer = 15;
    }
    expect(model.requests.some((r) => JSON.stringify(r.body).includes("CONTEXT CHECKPOINT COMPACTION"))).toBe(true);
    expect(hookLog()).toMatch(/pre-compact: checkpoint sent 1, spooled 0, refused 0/);
  }, 60_000);
});

/** Copies this run's rollout into test/fixtures/agents/codex/ (machine paths replaced) for the reader's unit test. */
function recordRollout(): void {
  const dir = path.join(home, ".codex", "sessions");
  const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(".jsonl"));
  const text = readFileSync(path.join(dir, files[0]!), "utf8").replaceAll(repo, "/home/ana/src/web").replaceAll(home, "/home/ana").replaceAll(ROOT, "/opt/baton");
  const out = path.join(ROOT, "test/fixtures/agents/codex/rollout-exec.jsonl");
  if (existsSync(path.dirname(out))) writeFileSync(out, text);
}
