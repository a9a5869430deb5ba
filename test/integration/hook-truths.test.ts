import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, hookContext, homeEnv, makeRepo, PATIENT_HOOKS, recordingProxy, runBaton } from "../fixtures/cli/cli-env";
import { testWorld } from "../support/world";

// The session-start hook tells the truth: a repository no project matches gets one line saying what
// was tried and where a mapping is made; `"inject": false` and a paused project inject nothing (and
// hook.log says why); task memory that CLAUDE.local.md imports is not sent twice. The real CLI as a child
// process, the real server. ana owns alpha and gamma, bo is a member of alpha.
const world = testWorld({ users: ["ana", "bo"], projects: { alpha: "ana", gamma: "ana" }, members: [{ project: "alpha", user: "bo", role: "member" }], tokens: {} });
const { as } = world;

const stdinFor = (cwd: string) => JSON.stringify({ ...JSON.parse(fixture("hooks/session-start.json")), cwd });
let n = 0;
const freshHome = () => path.join(world.dir, "homes", `h${++n}`);
const hookLogOf = (home: string) => {
  const file = path.join(home, ".cache", "baton", "hook.log");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
};

async function sessionStart(cwd: string, who = "ana", home = freshHome(), url = world.server.url) {
  const result = await runBaton(["hook", "session-start"], { cwd, env: homeEnv(home, { BATON_URL: url, BATON_TOKEN: world.tokens[who]!, ...PATIENT_HOOKS }), input: stdinFor(cwd) });
  expect(result.code).toBe(0);
  expect(result.stderr).toBe("");
  return { ...result, home };
}

function repoWith(name: string, options: { remote?: string; batonJson?: Record<string, unknown> } = {}): string {
  const dir = makeRepo(path.join(world.dir, "src", name), { remote: options.remote, commits: ["Initial commit"] });
  if (options.batonJson) writeFileSync(path.join(dir, ".baton.json"), JSON.stringify(options.batonJson));
  return dir;
}

describe("a repository that maps to no project", () => {
  it("gets the personal context and one factual line naming the origin and directory tried, until a matcher maps it", async () => {
    expect((await as("ana")("POST", "/api/projects/alpha/handoffs", { markdown: "Did: alpha's login form.", sessionId: "a1" })).status).toBe(201);
    const repo = repoWith("web-app", { remote: "git@github.com:acme/web-app.git" });
    const context = hookContext((await sessionStart(repo)).stdout);
    const line = `Project: none of yours matches origin acme/web-app or directory ${repo}, so this context is personal only. Mapping: a matcher in a project's settings (${world.server.url}/settings/projects) or {"project": "<slug>"} in .baton.json.`;
    expect(context.split("\n").filter((l) => l.startsWith("Project: "))).toEqual([line]);
    expect(context).not.toContain("Last handoff");

    // The owner maps the remote (as the settings page's matcher form does): the same hook finds alpha.
    await world.sql("INSERT INTO project_matchers (id, project_id, kind, pattern, created_at) SELECT 'm-web-app', id, 'remote', 'github.com/acme/web-app', 0 FROM projects WHERE slug = 'alpha'");
    const mapped = hookContext((await sessionStart(repo)).stdout);
    expect(mapped).not.toContain("Project: none");
    expect(mapped).toContain("Did: alpha's login form.");
  });

  it("outside git names the directory alone; a request without cwd or remote has no such line", async () => {
    const plain = path.join(world.dir, "notes");
    mkdirSync(plain, { recursive: true });
    const context = hookContext((await sessionStart(plain)).stdout);
    expect(context).toContain(`Project: none of yours matches directory ${plain}, so this context is personal only.`);
    expect(context).not.toContain("origin");

    const api = await as("ana")("GET", "/api/context");
    expect(api.json.context).not.toContain("Project: none");
    expect(api.json.sections.map((s: { name: string }) => s.name)).not.toContain("mapping");
    const named = await as("ana")("GET", `/api/context?format=text&cwd=${encodeURIComponent("/home/ana/src/nothing")}`);
    expect(named.text).toContain("Project: none of yours matches directory /home/ana/src/nothing");
  });
});

describe('"inject": false in .baton.json', () => {
  it("injects nothing, asks the server nothing, and says so in hook.log", async () => {
    const repo = repoWith("quiet", { batonJson: { project: "alpha", inject: false } });
    const proxy = await recordingProxy(world.server.url);
    try {
      const result = await sessionStart(repo, "ana", freshHome(), proxy.url);
      expect(result.stdout).toBe("");
      expect(proxy.requests).toEqual([]);
      expect(hookLogOf(result.home)).toContain(`session-start: nothing injected: "inject": false in ${path.join(repo, ".baton.json")}`);
    } finally {
      await proxy.close();
    }
  });

  it('"inject": true, or anything but false, injects as usual', async () => {
    const repo = repoWith("loud", { batonJson: { project: "alpha", inject: "no" } });
    expect(hookContext((await sessionStart(repo)).stdout)).toContain("Did: alpha's login form.");
  });
});

describe("a project's injection paused", () => {
  it.each([
    { name: "a member", who: "bo", body: { injectionPaused: true }, status: 403, code: "forbidden" },
    { name: "a string", who: "ana", body: { injectionPaused: "yes" }, status: 400, code: "validation_failed" },
    { name: "nothing to change", who: "ana", body: {}, status: 400, code: "validation_failed" },
    { name: "another field", who: "ana", body: { injectionPaused: true, name: "Renamed" }, status: 400, code: "validation_failed" },
  ])("PATCH by $name ($who) → $status, nothing changed", async ({ who, body, status, code }) => {
    const res = await as(who)("PATCH", "/api/projects/alpha", body);
    expect(res.status, res.text).toBe(status);
    expect(res.json.error.code).toBe(code);
    expect((await as("ana")("GET", "/api/projects/alpha")).json.project.injectionPaused).toBe(false);
  });

  it("an owner pauses it: every member's context is empty and says paused, the hook prints nothing and logs why; resuming brings it back", async () => {
    const paused = await as("ana")("PATCH", "/api/projects/alpha", { injectionPaused: true });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.json.project).toMatchObject({ slug: "alpha", role: "owner", injectionPaused: true });
    expect((await as("bo")("GET", "/api/projects/alpha")).json.project.injectionPaused).toBe(true);
    try {
      for (const who of ["ana", "bo"]) {
        const json = await as(who)("GET", "/api/context?project=alpha");
        expect(json.json).toMatchObject({ ok: true, injection: "paused", context: "", tokenEstimate: 0, sections: [], project: { slug: "alpha" } });
        expect((await as(who)("GET", "/api/context?project=alpha&format=text")).text).toBe("");
        const claude = await as(who)("GET", "/api/context?project=alpha&format=claude");
        expect(claude.json).toEqual({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "" } });
      }
      expect((await as("ana")("GET", "/api/context?project=gamma")).json).toMatchObject({ injection: "on", project: { slug: "gamma" } });

      const repo = repoWith("paused", { batonJson: { project: "alpha" } });
      const result = await sessionStart(repo, "bo");
      expect(result.stdout).toBe("");
      expect(hookLogOf(result.home)).toContain("session-start: nothing injected: injection is paused for this project");
    } finally {
      expect((await as("ana")("PATCH", "/api/projects/alpha", { injectionPaused: false })).json.project.injectionPaused).toBe(false);
    }
    const resumed = await as("bo")("GET", "/api/context?project=alpha");
    expect(resumed.json.injection).toBe("on");
    expect(resumed.json.context).toContain("Did: alpha's login form.");
  });
});

describe("task memory and CLAUDE.local.md", () => {
  it("baton task start puts the memory on the server at once; the hook says CLAUDE.local.md imports it instead of sending it again", async () => {
    const repo = repoWith("tasks", { batonJson: { project: "gamma" } });
    const env = homeEnv(freshHome(), { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana! });
    const start = await runBaton(["task", "start", "task-5"], { cwd: repo, env });
    expect(start.code, start.stderr).toBe(0);
    const memory = await as("ana")("GET", "/api/projects/gamma/tasks/task-5/memory");
    expect(memory.status).toBe(200);
    expect(memory.json.memory.markdown).toBe("# task-5\n\n## Goal\n\n## Notes\n\n## Next\n");

    const proxy = await recordingProxy(world.server.url);
    try {
      const context = hookContext((await sessionStart(repo, "ana", freshHome(), proxy.url)).stdout);
      expect(new URL(proxy.requests[0]!.url, "http://x").searchParams.get("taskImported")).toBe("task-5");
      expect(context).toMatch(/^## Active task: task-5 \(memory updated [^;]+; CLAUDE\.local\.md imports it from backlog\/memory\/task-5\.md\)$/m);
      expect(context).not.toContain("## Goal");
    } finally {
      await proxy.close();
    }

    // Only Claude Code reads CLAUDE.local.md: every other agent in the same repository gets the memory itself.
    for (const agent of ["codex", "gemini", "copilot"]) {
      const env = homeEnv(freshHome(), { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana!, ...PATIENT_HOOKS });
      const result = await runBaton(["hook", "session-start", "--agent", agent], { cwd: repo, env, input: JSON.stringify({ session_id: `s-${agent}`, sessionId: `s-${agent}`, cwd: repo }) });
      expect(result.code, result.stderr).toBe(0);
      const parsed = JSON.parse(result.stdout) as { additionalContext?: string; hookSpecificOutput?: { additionalContext: string } };
      const text = parsed.additionalContext ?? parsed.hookSpecificOutput!.additionalContext;
      expect(text, agent).toMatch(/^## Active task: task-5, memory \(by you, updated [^)]+\), quoted:\n> # task-5\n>\n> ## Goal/m);
      expect(text, agent).not.toContain("imports it");
    }

    // Elsewhere (no CLAUDE.local.md import) the memory itself is the context's.
    const other = repoWith("tasks-elsewhere", { batonJson: { project: "gamma" } });
    const elsewhere = hookContext((await sessionStart(other)).stdout);
    expect(elsewhere).toMatch(/^## Active task: task-5, memory \(by you, updated [^)]+\), quoted:\n> # task-5\n>\n> ## Goal/m);
    const wrongTask = await as("ana")("GET", "/api/context?project=gamma&format=text&taskImported=task-6");
    expect(wrongTask.text).toContain("> ## Goal");
    expect((await as("ana")("GET", "/api/context?project=gamma&taskImported=..%2Fetc")).status).toBe(400);
  });
});

describe("commit subjects sent as the search hint", () => {
  it("are redacted as a prompt is: a token in a subject never leaves the machine", async () => {
    const TOKEN = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9";
    const repo = makeRepo(path.join(world.dir, "src", "leaky"), { commits: ["Initial commit", `Rotate the flamingo deploy key ${TOKEN}`] });
    const proxy = await recordingProxy(world.server.url);
    try {
      await sessionStart(repo, "ana", freshHome(), proxy.url);
      const q = new URL(proxy.requests[0]!.url, "http://x").searchParams.get("q");
      expect(q).toBe("Rotate the flamingo deploy key · Initial commit");
      expect(proxy.requests.map((r) => r.url).join("\n")).not.toContain(TOKEN.slice(4, 20));
    } finally {
      await proxy.close();
    }
  });
});
