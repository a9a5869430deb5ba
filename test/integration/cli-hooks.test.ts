import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { createProject, createUserWithToken } from "../support/fixtures";
import { ROOT, startServer, tempDir, type RunningServer } from "../support/server";
import { failingServers, fixture, hookContext, homeEnv, makeRepo, NODE_START_MS, PATIENT_HOOKS, recordingProxy, runBaton, writeUserConfig } from "../fixtures/cli/cli-env";

// `baton hook session-start` as Claude Code runs it: a child process, the hook JSON on stdin, the
// real server behind it (or a dead, hung or refusing one).

const tmp = tempDir("baton-cli-hooks-");
const databaseUrl = `file:${tmp.dir}/hooks.db`;
let server: RunningServer;
let token: string;
let repo: string;
const home = path.join(tmp.dir, "home");

const stdinFor = (cwd: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ ...JSON.parse(fixture("hooks/session-start.json")), cwd, ...extra });

beforeAll(async () => {
  server = await startServer({ databaseUrl });
  token = await createUserWithToken(databaseUrl, "ana@example.com");
  await createProject(server.url, token, "web");
  const ana = apiClient(server.url, token);
  const seed = JSON.parse(fixture("../seed.json"));
  expect((await ana("POST", "/api/seed/import", seed)).status).toBe(200);
  expect((await ana("POST", "/api/projects/web/handoffs", { markdown: "Did: token list on main.", branch: "main", sessionId: "s-main" })).status).toBe(201);
  expect((await ana("POST", "/api/projects/web/handoffs", { markdown: "Did: revoke skeleton.", branch: "feat/revoke", sessionId: "s-revoke" })).status).toBe(201);
  expect((await ana("POST", "/api/projects/web/handoffs", { markdown: "Did: docs on main, newest.", branch: "main", sessionId: "s-docs" })).status).toBe(201);
  expect((await ana("PUT", "/api/projects/web/tasks/task-7/memory", { markdown: "# Pinned task seven\n\n- [ ] something" })).status).toBe(200);
  repo = makeRepo(path.join(tmp.dir, "src", "web"), {
    branch: "feat/revoke",
    remote: "git@github.com:acme/web.git",
    commits: ["Add token list", "Hash tokens with SHA-256", "Revoke button skeleton"],
  });
});
afterAll(async () => {
  await server?.stop();
  tmp.remove();
});

describe("baton hook session-start", () => {
  it("sends the hints in one request and prints the server's format=claude answer as is", async () => {
    const proxy = await recordingProxy(server.url);
    try {
      const result = await runBaton(["hook", "session-start"], {
        cwd: repo,
        env: homeEnv(home, { BATON_URL: proxy.url, BATON_TOKEN: token, ...PATIENT_HOOKS }),
        input: stdinFor(repo),
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe("");
      expect(proxy.requests).toHaveLength(1);
      const sent = new URL(proxy.requests[0]!.url, "http://x");
      expect(sent.pathname).toBe("/api/context");
      // No project is configured: the slug taken from the remote is only a guess; the server decides.
      expect(Object.fromEntries(sent.searchParams)).toEqual({
        guess: "web",
        format: "claude",
        mode: "full",
        source: "startup",
        sessionId: "4f2d9c1e-7b3a-4e8f-9a61-0c5d2e8b7f30",
        cwd: repo,
        branch: "feat/revoke",
        remote: "git@github.com:acme/web.git",
        q: "Revoke button skeleton · Hash tokens with SHA-256 · Add token list",
      });
      // Same state, same query: the server's bytes, unchanged.
      const direct = await apiClient(server.url, token)("GET", proxy.requests[0]!.url);
      expect(result.stdout).toBe(direct.text.endsWith("\n") ? direct.text : `${direct.text}\n`);
      const context = hookContext(result.stdout);
      expect(context).toMatch(/^## Identity/);
      // The branch hint picks the handoff of this branch over the newer one on main.
      expect(context).toMatch(/## Last handoff \([^)]*branch feat\/revoke/);
      expect(context).toContain("Did: revoke skeleton.");
    } finally {
      await proxy.close();
    }
  });

  it("set up twice (the plugin and baton install), both run at once on one input: one answers, the other prints nothing", async () => {
    // The server answers slowly, so the first hook is still running when the second reads its input.
    const proxy = await recordingProxy(server.url, { delayMs: 1500 });
    const twiceHome = path.join(tmp.dir, "home-twice");
    const run = () => runBaton(["hook", "session-start"], { cwd: repo, env: homeEnv(twiceHome, { BATON_URL: proxy.url, BATON_TOKEN: token, ...PATIENT_HOOKS }), input: stdinFor(repo) });
    try {
      const both = await Promise.all([run(), run()]);
      expect(both.map((r) => r.code)).toEqual([0, 0]);
      expect(proxy.requests.filter((r) => r.url.startsWith("/api/context"))).toHaveLength(1);
      const answered = both.filter((r) => r.stdout !== "");
      expect(answered).toHaveLength(1);
      expect(hookContext(answered[0]!.stdout)).toMatch(/^## Identity/);
      expect(readFileSync(path.join(twiceHome, ".cache/baton/hook.log"), "utf8")).toMatch(/another Baton hook is answering this input/);
      // The same input from a session in another folder (an input without a session id is the same for
      // every session) is another session's: both answered.
      const elsewhere = makeRepo(path.join(tmp.dir, "src", "elsewhere"));
      const apart = await Promise.all([run(), runBaton(["hook", "session-start"], { cwd: elsewhere, env: homeEnv(twiceHome, { BATON_URL: proxy.url, BATON_TOKEN: token, ...PATIENT_HOOKS }), input: stdinFor(repo) })]);
      expect(apart.map((r) => r.stdout === "")).toEqual([false, false]);
      expect(proxy.requests.filter((r) => r.url.startsWith("/api/context"))).toHaveLength(3);
      // Once it has answered, the same input is the agent's next event, answered again.
      const again = await run();
      expect(hookContext(again.stdout)).toMatch(/^## Identity/);
      expect(proxy.requests.filter((r) => r.url.startsWith("/api/context"))).toHaveLength(4);
    } finally {
      await proxy.close();
    }
  });

  it("reads the project and a pinned task from .baton.json, and passes source fork through", async () => {
    const other = makeRepo(path.join(tmp.dir, "src", "checkout-2"), { commits: ["Initial commit"] });
    writeFileSync(path.join(other, ".baton.json"), JSON.stringify({ project: "web", task: "task-7" }));
    const proxy = await recordingProxy(server.url);
    try {
      const result = await runBaton(["hook", "session-start"], {
        cwd: other,
        env: homeEnv(home, { BATON_URL: proxy.url, BATON_TOKEN: token, ...PATIENT_HOOKS }),
        input: stdinFor(other, { source: "fork" }),
      });
      expect(result.code).toBe(0);
      const sent = new URL(proxy.requests[0]!.url, "http://x").searchParams;
      expect([sent.get("project"), sent.get("task"), sent.get("source"), sent.get("branch"), sent.get("remote")]).toEqual(["web", "task-7", "fork", "main", null]);
      expect(hookContext(result.stdout)).toMatch(/## Active task: task-7, memory \(by you, /);
    } finally {
      await proxy.close();
    }
  });

  // Under PAI (PAI_DIR set) identity is PAI's to inject; an explicit mode, wherever it is set, wins.
  type ModeCase = { name: string; env: Record<string, string>; user?: Record<string, string>; repo?: Record<string, string>; mode: string };
  it.each<ModeCase>([
    { name: "PAI_DIR", env: { PAI_DIR: "/home/ana/.claude" }, mode: "complement" },
    { name: "mode in the user's config.json, over PAI_DIR", env: { PAI_DIR: "/home/ana/.claude" }, user: { mode: "full" }, mode: "full" },
    { name: "mode in .baton.json", env: {}, repo: { mode: "complement" }, mode: "complement" },
    { name: "mode in .baton.json, over PAI_DIR", env: { PAI_DIR: "/home/ana/.claude" }, repo: { mode: "full" }, mode: "full" },
    { name: "BATON_MODE", env: { BATON_MODE: "complement" }, mode: "complement" },
  ])("$name → mode=$mode, and the context says so", async ({ name, env, user, repo: repoConfig, mode }) => {
    const slug = name.replace(/[^a-z]+/gi, "-").toLowerCase();
    const dir = makeRepo(path.join(tmp.dir, "src", `mode-${slug}`), { commits: ["Initial commit"] });
    writeFileSync(path.join(dir, ".baton.json"), JSON.stringify({ project: "web", ...repoConfig }));
    const configHome = path.join(tmp.dir, `home-mode-${slug}`);
    const proxy = await recordingProxy(server.url);
    writeUserConfig(configHome, { url: proxy.url, token, ...user });
    try {
      const result = await runBaton(["hook", "session-start"], { cwd: dir, env: homeEnv(configHome, { ...env, ...PATIENT_HOOKS }), input: stdinFor(dir) });
      expect(result.code).toBe(0);
      expect(proxy.requests.map((r) => new URL(r.url, "http://x").searchParams.get("mode"))).toEqual([mode]);
      const context = hookContext(result.stdout);
      if (mode === "complement") expect(context).not.toContain("## Identity");
      else expect(context).toMatch(/^## Identity\nAI name: Ivy/);
      expect(context).toContain("Learnings: 2 patterns, 1 insight, 1 self-knowledge");
    } finally {
      await proxy.close();
    }
  });

  it("outside git, with a directory no project is named after, gets the personal context in one request", async () => {
    const plain = path.join(tmp.dir, "notes");
    mkdirSync(plain, { recursive: true });
    const proxy = await recordingProxy(server.url);
    writeUserConfig(path.join(tmp.dir, "home-config"), { url: proxy.url, token });
    try {
      const result = await runBaton(["hook", "session-start"], {
        cwd: plain,
        env: homeEnv(path.join(tmp.dir, "home-config"), PATIENT_HOOKS),
        input: stdinFor(plain, { source: "not-a-source" }),
      });
      expect(result.code).toBe(0);
      expect(proxy.requests.map((r) => new URL(r.url, "http://x").searchParams.get("guess"))).toEqual(["notes"]);
      const last = new URL(proxy.requests[0]!.url, "http://x").searchParams;
      expect(last.get("project")).toBeNull();
      expect(last.get("source")).toBeNull();
      expect(last.get("branch")).toBeNull();
      const context = hookContext(result.stdout);
      expect(context).toMatch(/^## Identity/);
      expect(context).not.toContain("Last handoff");
    } finally {
      await proxy.close();
    }
  });

  it("answers even when stdin is never closed", async () => {
    const started = performance.now();
    const child = spawn(process.execPath, [path.join(ROOT, "cli/bin/baton.mjs"), "hook", "session-start"], {
      cwd: repo,
      env: { ...process.env, ...homeEnv(home, { BATON_URL: server.url, BATON_TOKEN: token }) },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stdin.write('{"session_id":"open-stdin","cwd":');
    const code = await new Promise((resolve) => child.on("close", resolve));
    child.stdin.destroy();
    expect(code).toBe(0);
    // Within its time limit (2 s by default) and Node's own start.
    expect(performance.now() - started).toBeLessThan(2000 + NODE_START_MS);
    // Half a JSON document is no input: one line says so, and why (cut at the time limit, not bad JSON).
    expect(hookContext(stdout)).toBe("Baton: context unavailable (the hook input on stdin did not end in time).");
  });
});

describe("baton hook session-start never fails the agent", () => {
  // The hook's own deadline is its timeout (2 s by default); the process around it also pays Node's start.
  const servers = failingServers();
  const cases: { name: string; env: () => Record<string, string>; input?: string; context: () => RegExp; maxMs: number }[] = [
    { name: "server down", env: () => ({ BATON_URL: servers.closedUrl, BATON_TOKEN: token }), context: () => new RegExp(`server not reachable at ${servers.closedUrl}\\)\\.$`), maxMs: 2000 + NODE_START_MS },
    { name: "server hung", env: () => ({ BATON_URL: servers.hungUrl, BATON_TOKEN: token }), context: () => /no answer from http:\/\/127\.0\.0\.1:\d+ within 2000 ms\)\.$/, maxMs: 2000 + NODE_START_MS },
    { name: "server hung, BATON_TIMEOUT_MS=500", env: () => ({ BATON_URL: servers.hungUrl, BATON_TOKEN: token, BATON_TIMEOUT_MS: "500" }), context: () => /within 500 ms\)\.$/, maxMs: 500 + NODE_START_MS },
    { name: "bad token", env: () => ({ BATON_URL: server.url, BATON_TOKEN: "baton_not-a-real-token" }), context: () => /token refused by http:\/\/127\.0\.0\.1:\d+: 401; run `baton login`\)\.$/, maxMs: 2000 + NODE_START_MS },
    { name: "garbage stdin", env: () => ({ BATON_URL: server.url, BATON_TOKEN: token }), input: "}{ not json", context: () => /the hook input on stdin is not JSON\)\.$/, maxMs: 2000 + NODE_START_MS },
    { name: "stdin a JSON list", env: () => ({ BATON_URL: server.url, BATON_TOKEN: token }), input: "[1,2]", context: () => /not a JSON object\)\.$/, maxMs: 2000 + NODE_START_MS },
    { name: "no configuration at all", env: () => ({}), context: () => /no server configured/, maxMs: 2000 + NODE_START_MS },
    { name: "a URL but no token", env: () => ({ BATON_URL: server.url }), context: () => /no token for http/, maxMs: 2000 + NODE_START_MS },
  ];

  it.each(cases)("$name → exit 0, one line of context, in time", async ({ env, input, context, maxMs }) => {
    const result = await runBaton(["hook", "session-start"], { cwd: repo, env: homeEnv(path.join(tmp.dir, "home-failures"), env()), input: input ?? stdinFor(repo) });
    expect(result.code).toBe(0);
    expect(result.ms).toBeLessThan(maxMs);
    const text = hookContext(result.stdout);
    expect(text).toMatch(/^Baton: context unavailable \(/);
    expect(text).toMatch(context());
    expect(text.split("\n")).toHaveLength(1);
  });

  it("an event this CLI does not know (a newer plugin's) → exit 0, nothing printed, the reason in hook.log", async () => {
    const where = path.join(tmp.dir, "home-unknown-event");
    for (const event of ["notification", "SessionStart", ""]) {
      const result = await runBaton(["hook", event], { cwd: repo, env: homeEnv(where), input: "{}" });
      expect([result.code, result.stdout, result.stderr]).toEqual([0, "", ""]);
    }
    expect(readFileSync(path.join(where, ".cache", "baton", "hook.log"), "utf8")).toMatch(/unknown hook "notification"/);
  });

  it("takes the time limit from the user's config.json", async () => {
    const configHome = path.join(tmp.dir, "home-timeout");
    writeUserConfig(configHome, { url: servers.hungUrl, token, timeoutMs: 700 });
    const result = await runBaton(["hook", "session-start"], { cwd: repo, env: homeEnv(configHome), input: stdinFor(repo) });
    expect(result.code).toBe(0);
    expect(result.ms).toBeLessThan(700 + NODE_START_MS);
    expect(hookContext(result.stdout)).toMatch(/within 700 ms\)\.$/);
  });
});
