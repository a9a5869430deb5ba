import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillerSeed } from "../support/filler-seed";
import { tempDir } from "../support/server";
import { testWorld } from "../support/world";
import { failingServers, hookContext, homeEnv, makeRepo, NODE_START_MS, PATIENT_HOOKS, recordingProxy, runBaton } from "../fixtures/cli/cli-env";

// `baton hook prompt` as Claude Code runs it at each prompt (UserPromptSubmit), in a session the real
// `baton hook session-start` began: it injects what is relevant and new to the session, nothing else,
// and never holds the prompt up.

const world = testWorld({ users: ["ana"], projects: { web: "ana" }, members: [], tokens: {} });
const tmp = tempDir("baton-cli-prompt-");
afterAll(() => tmp.remove());

const SESSION = "9b1c6e2a-4d3f-4c1b-8e7a-2f5d0c9b8a71";
const SHA = "API tokens are hashed with SHA-256 before they are stored";
const FLAMINGO = "The flamingo signing keys rotate through the vault job every Tuesday";
let repo: string;
const home = path.join(tmp.dir, "home");
// What the hooks are given is the point here, not how fast (the failures below keep the default limits).
const env = (extra: Record<string, string> = {}) => homeEnv(home, { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana!, ...PATIENT_HOOKS, ...extra });
const promptInput = (prompt: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: SESSION, transcript_path: path.join(tmp.dir, "t.jsonl"), cwd: repo, hook_event_name: "UserPromptSubmit", prompt, ...extra });
const runPrompt = (prompt: string, extra: { env?: Record<string, string>; input?: string } = {}) =>
  runBaton(["hook", "prompt"], { cwd: repo, env: extra.env ?? env(), input: extra.input ?? promptInput(prompt) });

function promptContext(stdout: string): string {
  const parsed = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(parsed.hookSpecificOutput.hookEventName).toBe("UserPromptSubmit");
  return parsed.hookSpecificOutput.additionalContext;
}

beforeAll(async () => {
  const ana = world.as("ana");
  // Older than the 150 newer confirmed ones, so the session start's recent fill does not reach them:
  // only a match brings one into the start's context.
  for (const content of [SHA, FLAMINGO]) {
    expect((await ana("POST", "/api/learnings", { kind: "insight", content, project: "web", createdAt: "2025-01-01T00:00:00.000Z" })).status).toBe(201);
  }
  expect((await ana("POST", "/api/seed/import", fillerSeed(150))).status).toBe(200);
  repo = makeRepo(path.join(tmp.dir, "src", "web"), { remote: "git@github.com:acme/web.git", commits: ["Add token list", "Hash tokens with SHA-256"] });
});

describe("baton hook prompt in a session started by baton hook session-start", () => {
  it("the session start shows what its hints match, and not the rest", async () => {
    const start = await runBaton(["hook", "session-start"], { cwd: repo, env: env(), input: JSON.stringify({ session_id: SESSION, cwd: repo, source: "startup" }) });
    expect(start.code).toBe(0);
    const context = hookContext(start.stdout);
    expect(context).toContain(SHA);
    expect(context).not.toContain("flamingo");
  });

  it("a prompt about a learning the session was not given injects it", async () => {
    const result = await runPrompt("How do the flamingo signing keys get rotated?");
    expect([result.code, result.stderr]).toEqual([0, ""]);
    expect(promptContext(result.stdout)).toMatch(new RegExp(`^## Learnings relevant to this prompt \\(1 not given earlier in this session\\)\\n- ${FLAMINGO}`));
  });

  it("a prompt about what the start gave injects nothing; the same prompt again neither", async () => {
    for (const prompt of ["Why are API tokens hashed with SHA-256 before they are stored?", "How do the flamingo signing keys get rotated?"]) {
      const result = await runPrompt(prompt);
      expect([result.code, result.stdout, result.stderr]).toEqual([0, "", ""]);
    }
  });

  it("an unrelated prompt injects nothing", async () => {
    const result = await runPrompt("Please write a haiku about autumn in the mountains");
    expect([result.code, result.stdout, result.stderr]).toEqual([0, "", ""]);
  });

  it("another session is given the learning again", async () => {
    const result = await runPrompt("flamingo signing keys", { input: promptInput("flamingo signing keys", { session_id: "another-session" }) });
    expect(promptContext(result.stdout)).toContain(FLAMINGO);
  });

  it("sends the prompt with its secrets withheld, cut to its first 1,000 characters, in one request", async () => {
    const proxy = await recordingProxy(world.server.url);
    try {
      const secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
      const prompt = `The deploy token is ${secret} and the flamingo keys ${"are long ".repeat(400)}`;
      const result = await runPrompt(prompt, { env: env({ BATON_URL: proxy.url }), input: promptInput(prompt, { session_id: "s-secret" }) });
      expect(result.code).toBe(0);
      expect(proxy.requests).toHaveLength(1);
      const sent = new URL(proxy.requests[0]!.url, "http://x");
      expect(sent.pathname).toBe("/api/context/prompt");
      expect(Object.fromEntries([...sent.searchParams].filter(([k]) => k !== "q"))).toEqual({ guess: "web", format: "claude", sessionId: "s-secret", cwd: repo, remote: "git@github.com:acme/web.git" });
      const q = sent.searchParams.get("q")!;
      expect(q).not.toContain("ghp_");
      expect(q).not.toContain("withheld");
      expect(q.startsWith("The deploy token is and the flamingo keys are long")).toBe(true);
      expect(q.length).toBeLessThanOrEqual(1000);
      expect(q.length).toBeGreaterThan(900);
    } finally {
      await proxy.close();
    }
  });
});

describe("hints in scripts whose characters are long in a URL", () => {
  it("a branch whose commit subjects are long CJK lines still gets its context (the hint is cut to what a request line holds)", async () => {
    const cjk = makeRepo(path.join(tmp.dir, "src", "cjk"), { remote: "git@github.com:acme/web.git", commits: ["令牌".repeat(350), "签名密钥轮换".repeat(120), "哈希".repeat(350)] });
    const start = await runBaton(["hook", "session-start"], { cwd: cjk, env: env(), input: JSON.stringify({ session_id: "s-cjk", cwd: cjk, source: "startup" }) });
    expect(start.code).toBe(0);
    const context = hookContext(start.stdout);
    expect(context).not.toContain("context unavailable");
    expect(context).toContain("learnings (");
    const prompt = await runPrompt("签名密钥".repeat(250) + " flamingo", { input: promptInput("签名密钥".repeat(250) + " flamingo", { session_id: "s-cjk", cwd: cjk }) });
    expect([prompt.code, prompt.stderr]).toEqual([0, ""]);
  });
});

describe("baton hook prompt never holds a prompt up", () => {
  // The hook's own limit is 1 s by default; the process around it also pays Node's start.
  const servers = failingServers();
  const cases: { name: string; env: () => Record<string, string>; input?: string; maxMs: number }[] = [
    { name: "server down", env: () => ({ BATON_URL: servers.closedUrl, BATON_TOKEN: world.tokens.ana! }), maxMs: 1000 + NODE_START_MS },
    { name: "server hung", env: () => ({ BATON_URL: servers.hungUrl, BATON_TOKEN: world.tokens.ana! }), maxMs: 1000 + NODE_START_MS },
    { name: "server hung, BATON_PROMPT_TIMEOUT_MS=300", env: () => ({ BATON_URL: servers.hungUrl, BATON_TOKEN: world.tokens.ana!, BATON_PROMPT_TIMEOUT_MS: "300" }), maxMs: 300 + NODE_START_MS },
    { name: "bad token", env: () => ({ BATON_URL: world.server.url, BATON_TOKEN: "baton_not-a-real-token" }), maxMs: 1000 + NODE_START_MS },
    { name: "garbage stdin", env: () => ({ BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana! }), input: "}{ not json", maxMs: 1000 + NODE_START_MS },
    { name: "no prompt in the input", env: () => ({ BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana! }), input: JSON.stringify({ session_id: SESSION }), maxMs: 1000 + NODE_START_MS },
    { name: "no configuration at all", env: () => ({}), maxMs: 1000 + NODE_START_MS },
  ];

  it.each(cases)("$name → exit 0, nothing printed, in time", async ({ env: extra, input, maxMs }) => {
    const result = await runPrompt("How do the flamingo signing keys get rotated?", {
      env: homeEnv(path.join(tmp.dir, "home-failures"), extra()),
      input: input ?? promptInput("How do the flamingo signing keys get rotated?", { session_id: "s-failures" }),
    });
    expect([result.code, result.stdout, result.stderr]).toEqual([0, "", ""]);
    expect(result.ms).toBeLessThan(maxMs);
  });
});
