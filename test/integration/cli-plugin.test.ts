import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillerSeed } from "../support/filler-seed";
import { startModelDouble, type ModelDouble } from "../support/model-double";
import { runProcess } from "../support/run-process";
import { freePort, ROOT, tempDir } from "../support/server";
import { testWorld } from "../support/world";
import { claudeCodeEnv, fixture, homeEnv, hookContext, makeRepo, PATIENT_HOOKS, removeAfterWorkers } from "../fixtures/cli/cli-env";
import { BUILT_VERSION, asOlderCli } from "../support/versions";

// The Claude Code plugin (plugins/baton, in the marketplace .claude-plugin/marketplace.json): first its
// launcher alone, then the real Claude Code from npm, offline, with its model API replaced by a local
// double that records what Claude Code would have sent to the model.

const world = testWorld({ users: ["ana"], projects: { web: "ana" }, members: [], tokens: {} });
const tmp = tempDir("baton-cli-plugin-");
// Retried for up to 10 s: the detached session-end workers of the Claude Code sessions may still be finishing their logs.
afterAll(() => removeAfterWorkers(() => rmSync(tmp.dir, { recursive: true, force: true })));

const LAUNCHER = path.join(ROOT, "plugins/baton/bin/baton.mjs");
const MARKER = "Did: the plugin marker handoff.";
/** Older than a store's worth of newer learnings and matching no hint: not in the session start's context, only a prompt's. */
const FLAMINGO = "The flamingo signing keys rotate through the vault job every Tuesday";
const node = process.execPath;
let repo: string;
const sessionStartInput = (cwd: string) => JSON.stringify({ ...JSON.parse(fixture("hooks/session-start.json")), cwd });

beforeAll(async () => {
  repo = makeRepo(path.join(tmp.dir, "src", "web"), { remote: "git@github.com:acme/web.git", commits: ["Add the token list"] });
  const handoff = await world.as("ana")("POST", "/api/projects/web/handoffs", { markdown: MARKER, branch: "main" });
  expect(handoff.status).toBe(201);
  expect((await world.as("ana")("POST", "/api/learnings", { kind: "insight", content: FLAMINGO, project: "web", createdAt: "2025-01-01T00:00:00.000Z" })).status).toBe(201);
  expect((await world.as("ana")("POST", "/api/seed/import", fillerSeed(150))).status).toBe(200);
});

describe("the plugin's launcher (bin/baton.mjs)", () => {
  const launch = (args: string[], env: Record<string, string>, input = "") => runProcess(node, [LAUNCHER, ...args], { env, cwd: repo, input });

  it("fetches the server's CLI into the plugin's data folder on first use, then runs the cached copy", async () => {
    const data = path.join(tmp.dir, "data-first");
    const env = homeEnv(path.join(tmp.dir, "home-first"), { CLAUDE_PLUGIN_DATA: data, BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana! });
    const first = await launch(["hook", "session-start"], env, sessionStartInput(repo));
    expect(first.code).toBe(0);
    expect(first.stderr).toBe("");
    expect(hookContext(first.stdout)).toContain(MARKER);
    const cached = path.join(data, "baton.mjs");
    expect(readFileSync(cached, "utf8")).toBe(await (await fetch(`${world.server.url}/cli/baton.mjs`)).text());
    const mtime = statSync(cached).mtimeMs;
    expect((await launch(["--version"], env)).stdout).toBe(`${BUILT_VERSION}\n`);
    expect(statSync(cached).mtimeMs).toBe(mtime);
  });

  it("takes the plugin's url and token options when BATON_URL and BATON_TOKEN are not set", async () => {
    const env = homeEnv(path.join(tmp.dir, "home-options"), {
      CLAUDE_PLUGIN_DATA: path.join(tmp.dir, "data-options"),
      CLAUDE_PLUGIN_OPTION_URL: world.server.url,
      CLAUDE_PLUGIN_OPTION_TOKEN: world.tokens.ana!,
    });
    const hook = await launch(["hook", "session-start"], env, sessionStartInput(repo));
    expect(hookContext(hook.stdout)).toContain(MARKER);
  });

  it("reads a config file Notepad saved (a byte order mark) for the server's address, as the CLI reads it", async () => {
    const home = path.join(tmp.dir, "home-bom");
    mkdirSync(path.join(home, ".config", "baton"), { recursive: true });
    writeFileSync(path.join(home, ".config", "baton", "config.json"), `\uFEFF${JSON.stringify({ url: world.server.url, token: world.tokens.ana })}\r\n`);
    const hook = await launch(["hook", "session-start"], homeEnv(home, { CLAUDE_PLUGIN_DATA: path.join(tmp.dir, "data-bom") }), sessionStartInput(repo));
    expect(hookContext(hook.stdout)).toContain(MARKER);
  });

  it("drops a cached CLI of another version after one run, and the next run fetches the server's", async () => {
    const data = path.join(tmp.dir, "data-old");
    const served = await (await fetch(`${world.server.url}/cli/baton.mjs`)).text();
    const old = asOlderCli(served);
    expect(old).not.toBe(served);
    mkdirSync(data, { recursive: true });
    writeFileSync(path.join(data, "baton.mjs"), old);
    const env = homeEnv(path.join(tmp.dir, "home-old"), { CLAUDE_PLUGIN_DATA: data, BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana! });
    const withOld = await launch(["hook", "session-start"], env, sessionStartInput(repo));
    expect(hookContext(withOld.stdout)).toContain(MARKER);
    expect(withOld.stderr).toBe("");
    expect((await launch(["--version"], env)).stdout).toBe(`${BUILT_VERSION}\n`);
    expect(readFileSync(path.join(data, "baton.mjs"), "utf8")).toBe(served);
  });

  it("keeps a copy fetched again that still is not the version its server names, rather than fetch it at every run", async () => {
    // A server whose answers name another version than the CLI it hands out (a proxy's old copy of it,
    // a CLI rebuilt after the server): one drop, one fetch, then the copy is kept.
    let fetched = 0;
    const proxy = createServer(async (req, res) => {
      if (req.url?.startsWith("/cli/baton.mjs")) fetched++;
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const upstream = await fetch(world.server.url + req.url, { method: req.method, headers: { authorization: req.headers.authorization ?? "", "content-type": "application/json" }, body: chunks.length ? Buffer.concat(chunks) : undefined });
      res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json", "baton-version": "0.0.9+ffffffffff" });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const data = path.join(tmp.dir, "data-mismatch");
      const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
      const env = homeEnv(path.join(tmp.dir, "home-mismatch"), { CLAUDE_PLUGIN_DATA: data, BATON_URL: url, BATON_TOKEN: world.tokens.ana!, ...PATIENT_HOOKS });
      for (let run = 1; run <= 3; run++) expect(hookContext((await launch(["hook", "session-start"], env, sessionStartInput(repo))).stdout), `run ${run}`).toContain(MARKER);
      expect(fetched).toBe(2);
      expect(existsSync(path.join(data, "baton.mjs"))).toBe(true);
    } finally {
      proxy.close();
    }
  });

  it("with Baton's hooks off (a summariser's nested claude -p), a hook fetches nothing and says nothing", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const data = path.join(tmp.dir, "data-hooks-off");
    const env = homeEnv(path.join(tmp.dir, "home-hooks-off"), { CLAUDE_PLUGIN_DATA: data, BATON_URL: closed, BATON_TOKEN: "baton_x", BATON_HOOKS: "off" });
    for (const event of ["session-start", "prompt", "session-end"]) {
      const hook = await launch(["hook", event], env, sessionStartInput(repo));
      expect([hook.code, hook.stdout, hook.stderr]).toEqual([0, "", ""]);
    }
    expect(existsSync(data)).toBe(false);
  });

  it("never fails a hook: no server configured, or none answering, is one line of context and exit 0", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const cases: { env: Record<string, string>; says: string }[] = [
      { env: {}, says: "no server configured" },
      { env: { BATON_URL: closed, BATON_TOKEN: "baton_x" }, says: `could not fetch the CLI from ${closed}` },
    ];
    for (const [i, { env: extra, says }] of cases.entries()) {
      const env = homeEnv(path.join(tmp.dir, `home-none-${i}`), { CLAUDE_PLUGIN_DATA: path.join(tmp.dir, `data-none-${i}`), ...extra });
      const hook = await launch(["hook", "session-start"], env, sessionStartInput(repo));
      expect(hook.code).toBe(0);
      expect(hook.stderr).toBe("");
      expect(hookContext(hook.stdout)).toMatch(new RegExp(`^Baton: context unavailable \\(${says.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
      const end = await launch(["hook", "session-end"], env, "{}");
      expect([end.code, end.stdout, end.stderr]).toEqual([0, "", ""]);
      const mcp = await launch(["mcp"], env);
      expect(mcp.code).toBe(5);
      expect(mcp.stderr).toContain(says);
    }
  });

  it("a session's end before the CLI is fetched returns at once; the fetch and the hook go on in the background, and the handoff arrives", async () => {
    // The server hands out its CLI after 3 s, as a slow link would; everything else at once.
    const slow = createServer(async (req, res) => {
      if (req.url === "/cli/baton.mjs") await new Promise((r) => setTimeout(r, 3000));
      const upstream = await fetch(world.server.url + req.url, { method: req.method, headers: { ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}), "content-type": "application/json" }, body: req.method === "GET" ? undefined : await new Response(req as unknown as ReadableStream).text() });
      res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    try {
      const data = path.join(tmp.dir, "data-slow");
      const env = homeEnv(path.join(tmp.dir, "home-slow"), { CLAUDE_PLUGIN_DATA: data, BATON_URL: `http://127.0.0.1:${(slow.address() as { port: number }).port}`, BATON_TOKEN: world.tokens.ana! });
      const transcript = path.join(tmp.dir, "slow-transcript.jsonl");
      writeFileSync(transcript, fixture("transcript.jsonl"));
      // A branch of its own: on main the session starts of the tests below still get the handoff they expect.
      const slowRepo = makeRepo(path.join(tmp.dir, "src", "web-slow"), { branch: "slow-end", remote: "git@github.com:acme/web.git", commits: ["Slow end"] });
      const input = JSON.stringify({ ...JSON.parse(fixture("hooks/session-end.json")), session_id: "plugin-slow-1", cwd: slowRepo, transcript_path: transcript });
      const end = await runProcess(node, [LAUNCHER, "hook", "session-end"], { env, cwd: slowRepo, input });
      expect([end.code, end.stdout, end.stderr]).toEqual([0, "", ""]);
      // Claude Code gives SessionEnd hooks 1.5 s in all; before, this waited for the fetch (5 s at most).
      expect(end.ms).toBeLessThan(1500);
      expect(existsSync(path.join(data, "baton.mjs"))).toBe(false);
      await expect.poll(async () => ((await world.as("ana")("GET", "/api/projects/web/handoffs?limit=100")).json.items as { sessionId: string | null }[]).some((h) => h.sessionId === "plugin-slow-1"), { timeout: 20_000, interval: 250 }).toBe(true);
      expect(existsSync(path.join(data, "baton.mjs"))).toBe(true);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});

describe("the plugin in the real Claude Code", () => {
  let claude: string;
  let model: ModelDouble;
  beforeAll(async () => {
    // Installs @anthropic-ai/claude-code from npm into .tools/ the first time (scripts/test.sh does it up front).
    claude = execFileSync("bash", [path.join(ROOT, "scripts/ensure-claude-code.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
    model = await startModelDouble();
  }, 300_000);
  afterAll(() => model?.stop());

  /** Claude Code with a HOME of its own, nothing of the machine's Anthropic or Claude settings, and no traffic but the double. */
  const claudeEnv = (home: string, extra: Record<string, string> = {}) => claudeCodeEnv(home, model.url, extra);

  it("claude plugin validate passes for the plugin and the marketplace, without warnings", async () => {
    for (const target of [path.join(ROOT, "plugins/baton"), ROOT]) {
      const result = await runProcess(claude, ["plugin", "validate", target], { env: claudeEnv(path.join(tmp.dir, "home-validate")) });
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toContain("Validation passed");
      expect(result.stdout).not.toMatch(/warning/i);
    }
  });

  it("marketplace add + install baton@baton: a claude -p session carries Baton's context and the prompt's learnings, offers its MCP tools, leaves a handoff; /baton:remember gives the model its prompt", async () => {
    const home = path.join(tmp.dir, "home-claude");
    const env = claudeEnv(home, { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana!, ...PATIENT_HOOKS });
    for (const args of [["plugin", "marketplace", "add", ROOT], ["plugin", "install", "baton@baton"]]) {
      const result = await runProcess(claude, args, { env, cwd: home });
      expect(result.code, result.stdout + result.stderr).toBe(0);
    }
    const before = await world.as("ana")("GET", "/api/projects/web/handoffs");
    const session = await runProcess(claude, ["-p", "How do the flamingo signing keys rotate?"], { env, cwd: repo, timeoutMs: 120_000 });
    expect(session.code, session.stdout + session.stderr).toBe(0);
    expect(session.stdout).toContain("Hello from the model double.");

    const main = model.requests.find((r) => JSON.stringify(r.body).includes("SessionStart hook additional context"));
    expect(main, `no request carried the SessionStart context: ${model.requests.length} requests`).toBeDefined();
    expect(JSON.stringify(main!.body)).toContain(MARKER);
    // The UserPromptSubmit hook's context: the learning the start did not give, relevant to the prompt.
    expect(JSON.stringify(main!.body)).toContain(JSON.stringify(`## Learnings relevant to this prompt (1 not given earlier in this session)\n- ${FLAMINGO}`).slice(1, -1));
    const tools = ((main!.body.tools ?? []) as { name: string }[]).map((t) => t.name);
    for (const tool of ["search_learnings", "propose_learning", "write_handoff"]) {
      expect(tools.some((name) => name.startsWith("mcp__") && name.includes("baton") && name.endsWith(`__${tool}`)), tools.join(", ")).toBe(true);
    }

    // SessionEnd: the detached worker posts the session's handoff.
    const count = before.json.items.length;
    await expect.poll(async () => (await world.as("ana")("GET", "/api/projects/web/handoffs")).json.items.length, { timeout: 15_000 }).toBeGreaterThan(count);
    const log = path.join(home, ".cache/baton/hook.log");
    await expect.poll(() => existsSync(log) && readFileSync(log, "utf8"), { timeout: 15_000 }).toMatch(/session-end worker \(SessionEnd\): sent [1-9]/);

    // /remember (issue 23): Claude Code gives the model the command's prompt, with the user's words and
    // the plugin's own launcher to run (the double answers in text, so no command runs here).
    const seen = model.requests.length;
    const remember = await runProcess(claude, ["-p", "/baton:remember staging lives in eu-west-1"], { env, cwd: repo, timeoutMs: 120_000 });
    expect(remember.code, remember.stdout + remember.stderr).toBe(0);
    const asked = model.requests.slice(seen).map((r) => JSON.stringify(r.body)).find((body) => body.includes("staging lives in eu-west-1"));
    expect(asked, "no request carried /remember's prompt").toBeDefined();
    expect(asked).toMatch(/node \\"[^"$]+\/bin\/baton\.mjs\\" remember --kind <pattern\|insight> -- \\"<the learning>\\"/);
    expect(asked).toContain("a fix that took effort");
  }, 240_000);
});
