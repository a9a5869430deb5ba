import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, hookContext, homeEnv, makeRepo, recordingProxy, removeAfterWorkers, runBaton, waitFor } from "../fixtures/cli/cli-env";
import { tempDir } from "../support/server";
import { testWorld } from "../support/world";

// The server decides a session's project (issue 21, finding 1 and "What it must show" 2). The attack:
// bo creates `web-app` and writes into it; ana's repository (origin …/acme/web-app.git, no .baton.json)
// is mapped to her project `alpha` by a remote matcher. Every hook of ana's session — start, prompt,
// pre-compact, end — lands in alpha, never in web-app. The real CLI as a child process against two real
// server instances on one database file (the second shows what is remembered is in the table, not only
// in the first instance's memory).
const world = testWorld({ users: ["ana", "bo"], projects: { alpha: "ana", beta: "ana", "web-app": "bo" }, members: [], tokens: {}, instances: 2 });
const { as } = world;
const tmp = tempDir("baton-session-project-");
afterAll(() => removeAfterWorkers(tmp.remove));

const REMOTE = "https://github.com/acme/web-app.git";
let repo: string;
let transcriptPath: string;
let n = 0;
const freshHome = () => path.join(tmp.dir, "homes", `h${++n}`);
const envFor = (home: string, url = world.server.url) => homeEnv(home, { BATON_URL: url, BATON_TOKEN: world.tokens.ana!, BATON_TIMEOUT_MS: "8000", BATON_PROMPT_TIMEOUT_MS: "8000" });
const input = (sessionId: string, cwd: string, event: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: sessionId, transcript_path: transcriptPath, cwd, hook_event_name: event, ...extra });

async function hook(name: string, sessionId: string, cwd: string, extra: Record<string, unknown> = {}, url = world.server.url, home = freshHome()) {
  const event = { "session-start": "SessionStart", prompt: "UserPromptSubmit", "pre-compact": "PreCompact", "session-end": "SessionEnd" }[name]!;
  const result = await runBaton(["hook", name], { cwd, env: envFor(home, url), input: input(sessionId, cwd, event, extra) });
  expect(result.code, result.stderr).toBe(0);
  return { ...result, home };
}

/** The project the server recorded the session's start in (slug; null: personal), once the bookkeeping is written. */
const startedIn = (sessionId: string) =>
  waitFor("the session's start to be recorded", async () => {
    const rows = await world.sql("SELECT p.slug FROM session_projects s LEFT JOIN projects p ON p.id = s.project_id WHERE s.session_id = ?", [sessionId]);
    return rows.length ? { slug: (rows[0]!.slug as string | null) ?? null } : null;
  }).then((r) => r.slug);

/** Where a session's handoffs went: the projects (of all three) holding one under its id, as their owners see them. */
async function handoffHomes(sessionId: string): Promise<string[]> {
  const homes: string[] = [];
  for (const [slug, owner] of [["alpha", "ana"], ["beta", "ana"], ["web-app", "bo"]] as const) {
    const items = (await as(owner)("GET", `/api/projects/${slug}/handoffs?limit=100`)).json.items as { sessionId: string | null }[];
    if (items.some((h) => h.sessionId === sessionId)) homes.push(slug);
  }
  return homes;
}

/**
 * The project the prompt stage answered for, asking exactly what the prompt hook asked (its URL,
 * recorded) in JSON. The hook sends as `project` only what is configured, never its guess.
 */
async function promptProject(sessionId: string, cwd: string, url = world.server.url, configured: string | null = null): Promise<string | null> {
  const proxy = await recordingProxy(url);
  try {
    await hook("prompt", sessionId, cwd, { prompt: "How do we deploy the kiwi service?" }, proxy.url);
  } finally {
    await proxy.close();
  }
  const asked = proxy.requests.find((r) => r.url.startsWith("/api/context/prompt?"));
  expect(asked, "the prompt hook asked the prompt stage").toBeDefined();
  const query = new URLSearchParams(asked!.url.split("?")[1]);
  expect(query.get("project"), "a guessed slug is never sent as the project").toBe(configured);
  query.set("format", "json");
  return (await as("ana")("GET", `/api/context/prompt?${query}`)).json.project?.slug ?? null;
}

async function sessionEnd(sessionId: string, cwd: string, url = world.server.url) {
  const { home } = await hook("session-end", sessionId, cwd, { reason: "prompt_input_exit" }, url);
  return waitFor("the session-end worker to finish", () => {
    const log = path.join(home, ".cache", "baton", "hook.log");
    const text = existsSync(log) ? readFileSync(log, "utf8") : "";
    return /session-end worker \(SessionEnd\): sent/.test(text) ? text : null;
  });
}

const matcher = (id: string, slug: string, kind: "remote" | "cwd", pattern: string) =>
  world.sql("INSERT INTO project_matchers (id, project_id, kind, pattern, created_at) SELECT ?, id, ?, ?, 0 FROM projects WHERE slug = ?", [id, kind, pattern, slug]);
const joinWebApp = () =>
  world.sql("INSERT OR IGNORE INTO project_members (project_id, user_id, role, created_at) SELECT p.id, u.id, 'member', ? FROM projects p, users u WHERE p.slug = 'web-app' AND u.email = 'ana@example.com'", [Date.now()]);

beforeAll(async () => {
  repo = makeRepo(path.join(tmp.dir, "src", "web-app"), { branch: "main", remote: REMOTE, commits: ["Deploy script"] });
  transcriptPath = path.join(tmp.dir, "transcript.jsonl");
  writeFileSync(transcriptPath, fixture("transcript.jsonl").replaceAll("/home/ana/src/web", repo));
  expect((await as("bo")("POST", "/api/projects/web-app/handoffs", { markdown: "Did: bo's plan for web-app.", author: "Alice", sessionId: "bo-1" })).status).toBe(201);
  expect((await as("ana")("POST", "/api/projects/alpha/handoffs", { markdown: "Did: alpha's own deploy work.", sessionId: "ana-0" })).status).toBe(201);
  await matcher("m-alpha", "alpha", "remote", "github.com/acme/web-app");
});

describe("the attack from finding 1: a project named like the repository", () => {
  it.each([
    { name: "ana is not a member of bo's web-app", member: false, session: "a7ac0001-0000-4000-8000-000000000001" },
    { name: "ana is a member of both: alpha's matcher wins over the slug guessed from the remote", member: true, session: "a7ac0002-0000-4000-8000-000000000002" },
  ])("$name: start, prompt, pre-compact and end all land in alpha", async ({ member, session }) => {
    if (member) await joinWebApp();
    const start = hookContext((await hook("session-start", session, repo, { source: "startup" })).stdout);
    expect(start).not.toContain("bo's plan for web-app");
    expect(await startedIn(session)).toBe("alpha");
    expect(await promptProject(session, repo)).toBe("alpha");
    await hook("pre-compact", session, repo, { trigger: "auto" });
    expect(await handoffHomes(session)).toEqual(["alpha"]);
    await sessionEnd(session, repo);
    expect(await handoffHomes(session)).toEqual(["alpha"]);
    const [ended] = ((await as("ana")("GET", "/api/projects/alpha/handoffs?limit=100")).json.items as { sessionId: string; markdown: string; author: string }[]).filter((h) => h.sessionId === session);
    expect(ended!.markdown).toMatch(/^Session a7ac000\d · /);
    // Issue 22: the handoff says which agent wrote it, and the model its transcript names.
    expect(ended).toMatchObject({ author: "ana", agent: "claude", model: "claude-sonnet-4-5-20250929" });
  });
});

describe("the order of the rules", () => {
  it("a configured slug wins over the matchers", async () => {
    const configured = makeRepo(path.join(tmp.dir, "src", "configured", "web-app"), { remote: REMOTE, commits: ["x"] });
    writeFileSync(path.join(configured, ".baton.json"), JSON.stringify({ project: "beta" }));
    const session = "c0f10001-0000-4000-8000-000000000001";
    await hook("session-start", session, configured, { source: "startup" });
    expect(await promptProject(session, configured, world.server.url, "beta")).toBe("beta");
    await hook("pre-compact", session, configured, { trigger: "auto" });
    expect(await handoffHomes(session)).toEqual(["beta"]);
  });

  it("two of the user's projects with the same matcher: the one joined first; the guess only when no matcher fits", async () => {
    const dir = makeRepo(path.join(tmp.dir, "src", "twins", "beta"), { commits: ["x"] });
    await matcher("m-twin-alpha", "alpha", "cwd", "twins/beta");
    await matcher("m-twin-beta", "beta", "cwd", "twins/beta");
    // ana made alpha before beta: alpha; once she has been in beta longer, beta.
    const resolve = async () => (await as("ana")("GET", `/api/context/project?cwd=${encodeURIComponent(dir)}&guess=beta`)).json.project?.slug;
    expect(await resolve()).toBe("alpha");
    await world.sql("UPDATE project_members SET created_at = 0 WHERE project_id = (SELECT id FROM projects WHERE slug = 'beta')");
    expect(await resolve()).toBe("beta");
    // With no matcher fitting, the guess names one of her projects, and never another user's.
    const none = (q: string) => as("ana")("GET", `/api/context/project?${q}`);
    expect((await none("cwd=/elsewhere/gamma&guess=beta")).json.project?.slug).toBe("beta");
    expect((await as("bo")("GET", "/api/context/project?cwd=/elsewhere/x&guess=alpha")).json.project).toBeNull();
  });
});

describe("a session follows its start", () => {
  it("after the mapping changes, the prompt, the checkpoint and the end stay where the start was served; a session whose start never reached the server is resolved again", async () => {
    const session = "f0110001-0000-4000-8000-000000000001";
    const dir = makeRepo(path.join(tmp.dir, "src", "moving", "app"), { commits: ["x"] });
    await matcher("m-moving-alpha", "alpha", "cwd", "moving/app");
    await hook("session-start", session, dir, { source: "startup" });
    // What the start decided is written with the served-context bookkeeping, then read by any instance.
    expect(await startedIn(session)).toBe("alpha");
    await world.sql("DELETE FROM project_matchers WHERE id = 'm-moving-alpha'");
    await matcher("m-moving-beta", "beta", "cwd", "moving/app");
    const other = world.servers[1]!.url;
    expect(await promptProject(session, dir, other)).toBe("alpha");
    await hook("pre-compact", session, dir, { trigger: "auto" }, other);
    expect(await handoffHomes(session)).toEqual(["alpha"]);
    await sessionEnd(session, dir, other);
    expect(await handoffHomes(session)).toEqual(["alpha"]);

    const unstarted = "f0110002-0000-4000-8000-000000000002";
    expect(await promptProject(unstarted, dir)).toBe("beta");
    await hook("pre-compact", unstarted, dir, { trigger: "auto" });
    expect(await handoffHomes(unstarted)).toEqual(["beta"]);
  });

  it("no project: the context is personal, and the end posts no handoff anywhere", async () => {
    const session = "n0a10001-0000-4000-8000-000000000001";
    const lonely = makeRepo(path.join(tmp.dir, "src", "lonely"), { commits: ["x"] });
    const start = hookContext((await hook("session-start", session, lonely, { source: "startup" })).stdout);
    expect(start).toContain("so this context is personal only");
    expect(await startedIn(session)).toBeNull();
    const log = await sessionEnd(session, lonely);
    expect(log).toContain("no handoff is stored");
    expect(await handoffHomes(session)).toEqual([]);
    // A handoff posted for such a session (a spooled one, say) is answered without being stored.
    const posted = await as("ana")("POST", "/api/handoffs", { markdown: "Did: nothing shared.", sessionId: "n0a10002", cwd: lonely, guess: "lonely" });
    expect([posted.status, posted.json]).toEqual([200, { ok: true, handoff: null }]);
  });
});

describe("GET /api/context/project and POST /api/handoffs refuse bad input", () => {
  it.each([
    { name: "a project that is not a slug", who: "ana", method: "GET", route: "/api/context/project?project=Not%20A%20Slug", body: undefined, status: 400 },
    { name: "a configured project the user is not a member of", who: "bo", method: "GET", route: "/api/context/project?project=alpha", body: undefined, status: 404 },
    { name: "a handoff without markdown", who: "ana", method: "POST", route: "/api/handoffs", body: { project: "alpha" }, status: 400 },
    { name: "a handoff into a configured project the user is not a member of", who: "bo", method: "POST", route: "/api/handoffs", body: { markdown: "x", project: "alpha" }, status: 404 },
  ])("$name → $status", async ({ who, method, route, body, status }) => {
    const res = await as(who)(method, route, body);
    expect(res.status, res.text).toBe(status);
    expect(res.json).toMatchObject({ ok: false, error: { code: expect.any(String), message: expect.any(String) } });
  });
});
