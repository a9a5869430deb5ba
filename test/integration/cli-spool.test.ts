import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { createProject, createUserWithToken } from "../support/fixtures";
import { freePort, startServer, tempDir, type RunningServer } from "../support/server";
import { fixture, hookContext, homeEnv, makeRepo, recordingProxy, removeAfterWorkers, runBaton, waitFor, writeUserConfig } from "../fixtures/cli/cli-env";

// `baton hook session-end` / `stop`: return at once, a detached worker posts the handoff and the
// learning candidates, and a spool keeps them while the server is down.

const tmp = tempDir("baton-cli-spool-");
const databaseUrl = `file:${tmp.dir}/spool.db`;
let server: RunningServer;
let token: string;
let repo: string;
let transcriptPath: string;
let closedUrl: string;

type Handoff = { sessionId: string | null; markdown: string };
type Proposal = { content: string; confidence: number; mergedCount: number; project: string | null; source: string; lesson: string | null; method: string | null; evidence: { turn: number; who: string; text: string }[] | null };

const api = () => apiClient(server.url, token);
const handoffsOf = async (sessionId: string) =>
  ((await api()("GET", "/api/projects/web/handoffs?limit=100")).json.items as Handoff[]).filter((h) => h.sessionId === sessionId);
const proposals = async () => (await api()("GET", "/api/proposals?limit=100")).json.items as Proposal[];
const spoolFiles = (home: string) => {
  const dir = path.join(home, ".cache", "baton", "spool");
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};
const jobsLeft = (home: string) => {
  const dir = path.join(home, ".cache", "baton", "jobs");
  return existsSync(dir) ? readdirSync(dir).length : 0;
};
const hookLog = (home: string) => {
  const file = path.join(home, ".cache", "baton", "hook.log");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
};
const input = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ ...JSON.parse(fixture(`hooks/${name}`)), cwd: repo, transcript_path: transcriptPath, ...extra });

beforeAll(async () => {
  server = await startServer({ databaseUrl });
  token = await createUserWithToken(databaseUrl, "ana@example.com");
  await createProject(server.url, token, "web");
  repo = makeRepo(path.join(tmp.dir, "src", "web"), { branch: "feat/revoke", remote: "https://github.com/acme/web.git", commits: ["Token list"] });
  transcriptPath = path.join(tmp.dir, "transcript.jsonl");
  writeFileSync(transcriptPath, fixture("transcript.jsonl").replaceAll("/home/ana/src/web", repo));
  closedUrl = `http://127.0.0.1:${await freePort()}`;
});
afterAll(async () => {
  await server?.stop();
  // Detached workers may still be writing their log: try again for a while.
  await removeAfterWorkers(tmp.remove);
});

const SLOW_MACHINE_TIMEOUT_MS = "8000";

describe("baton hook session-end", () => {
  const home = path.join(tmp.dir, "home-spool");
  const sessionId = "4f2d9c1e-7b3a-4e8f-9a61-0c5d2e8b7f30";

  it("with the server down: returns at once, and the worker spools the handoff and the proposals", async () => {
    const result = await runBaton(["hook", "session-end"], { cwd: repo, env: homeEnv(home, { BATON_URL: closedUrl, BATON_TOKEN: token }), input: input("session-end.json") });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    // Claude Code gives SessionEnd hooks 1.5 s together: the hook hands the work to a detached worker.
    expect(result.ms).toBeLessThan(1500);
    await waitFor("the worker to spool", () => jobsLeft(home) === 0 && /session-end worker \(SessionEnd\): sent 0, spooled 4/.test(hookLog(home)));
    const files = spoolFiles(home);
    expect(files).toHaveLength(4);
    // (A session's handoff carries a key, which the next one of the session replaces.)
    expect(files.every((f) => /^\d{14}-\d{6}-\d+-[0-9a-f]{8}(-k[0-9a-f]{16})?\.json$/.test(f))).toBe(true);
    const requests = files.map((f) => JSON.parse(readFileSync(path.join(home, ".cache", "baton", "spool", f), "utf8")));
    // The handoff carries the hints, not a project: the server files it when it gets it.
    expect(requests[0]).toMatchObject({ method: "POST", path: "/api/handoffs", body: { sessionId, branch: "feat/revoke", guess: "web", cwd: repo } });
    expect(requests[0].body.project).toBeUndefined();
    expect(requests[0].body.markdown).toContain("### Files touched\n- components/tokens/token-list.tsx (edited)");
    // Which project the session is in is the server's to say: unreachable now, the proposals carry the
    // session and its hints as the handoff does, for the server to file them when they reach it.
    expect(requests.slice(1).map((r) => [r.path, r.body.kind, r.body.project, r.body.source])).toEqual([
      ["/api/proposals", "pattern", undefined, sessionId],
      ["/api/proposals", "insight", undefined, sessionId],
      ["/api/proposals", "pattern", undefined, sessionId],
    ]);
    for (const r of requests.slice(1)) expect(r.body.session).toEqual({ sessionId, guess: "web", cwd: repo, remote: "https://github.com/acme/web.git" });
    // No token or URL is written to disk.
    expect(files.map((f) => readFileSync(path.join(home, ".cache", "baton", "spool", f), "utf8")).join("")).not.toContain(token);
  });

  it("with the server up again: the next hook run sends the spool first, so this session's context already has the handoff", async () => {
    // The server answers at the address that was down (a proxy there, in front of the real one).
    const up = await recordingProxy(server.url, { port: Number(new URL(closedUrl).port) });
    // A generous timeout: this is about what is sent first, not how fast (a loaded machine is slow).
    const env = homeEnv(home, { BATON_URL: closedUrl, BATON_TOKEN: token, BATON_TIMEOUT_MS: SLOW_MACHINE_TIMEOUT_MS });
    const result = await runBaton(["hook", "session-start"], { cwd: repo, env, input: JSON.stringify({ session_id: "next", cwd: repo, source: "startup" }) }).finally(() => up.close());
    expect(result.code).toBe(0);
    expect(hookContext(result.stdout)).toContain("Add a revoke button to the API token list");
    expect(spoolFiles(home)).toEqual([]);
    expect(await handoffsOf(sessionId)).toHaveLength(1);
    const sent = await proposals();
    // Filed under the session's project as its handoff is, not as personal ones.
    expect(sent.map((p) => [p.content, p.confidence, p.mergedCount, p.project]).sort()).toEqual(
      [
        ["Always run the migrations before the tests, the test database is created empty.", 0.7, 0, "web"],
        ["The staging database is read-only, never point the e2e tests at it.", 0.65, 0, "web"],
        ["Prefer server actions for dashboard mutations.", 0.6, 0, "web"],
      ].sort(),
    );
    // Each with the kind of lesson and the line of the transcript it came from (the user's turn).
    for (const p of sent) {
      expect([p.method, p.lesson]).toEqual(["transcript", "explicit"]);
      expect(p.evidence!.map((e) => e.who)).toEqual(["user"]);
      expect(p.evidence![0]!.text.toLowerCase()).toContain(p.content.slice(0, 20).toLowerCase());
    }
  });

  it("a second run sends nothing: one handoff, proposals not merged again", async () => {
    const env = homeEnv(home, { BATON_URL: server.url, BATON_TOKEN: token, BATON_TIMEOUT_MS: SLOW_MACHINE_TIMEOUT_MS });
    const result = await runBaton(["hook", "session-start"], { cwd: repo, env, input: "{}" });
    expect(result.code).toBe(0);
    expect(spoolFiles(home)).toEqual([]);
    expect(await handoffsOf(sessionId)).toHaveLength(1);
    expect((await proposals()).every((p) => p.mergedCount === 0)).toBe(true);
  });

  it("as a Stop hook after each turn, then at SessionEnd: the handoff is replaced, candidates are sent once", async () => {
    const home2 = path.join(tmp.dir, "home-stop");
    const env = homeEnv(home2, { BATON_URL: server.url, BATON_TOKEN: token, BATON_TIMEOUT_MS: SLOW_MACHINE_TIMEOUT_MS });
    const stop = await runBaton(["hook", "stop"], { cwd: repo, env, input: input("stop.json", { session_id: "stop-session" }) });
    expect(stop.code).toBe(0);
    expect(stop.stdout).toBe("");
    await waitFor("the Stop worker", () => /session-end worker \(Stop\): sent 4/.test(hookLog(home2)));
    const [first] = await handoffsOf("stop-session");
    expect(first!.markdown).toContain("Next step: add the empty state to components/tokens/token-list.tsx.");
    // This session is in web as the spooled one was: its same statements merge into that session's
    // proposals (seen twice now), nothing is stored twice.
    const afterStop = await proposals();
    expect(afterStop.map((p) => [p.project, p.mergedCount])).toEqual([
      ["web", 1],
      ["web", 1],
      ["web", 1],
    ]);

    const end = await runBaton(["hook", "session-end"], { cwd: repo, env, input: input("session-end.json", { session_id: "stop-session" }) });
    expect(end.code).toBe(0);
    await waitFor("the SessionEnd worker", () => /session-end worker \(SessionEnd\): sent 1,/.test(hookLog(home2)));
    expect(await handoffsOf("stop-session")).toHaveLength(1);
    expect(await proposals()).toEqual(afterStop);
  });

  it("drops (and logs) spooled requests that can never succeed, keeps the rest", async () => {
    const home3 = path.join(tmp.dir, "home-hopeless");
    const dir = path.join(home3, ".cache", "baton", "spool");
    mkdirSync(dir, { recursive: true });
    const write = (name: string, body: unknown) => writeFileSync(path.join(dir, name), typeof body === "string" ? body : JSON.stringify(body));
    write("00000000000001-1-aaaaaaaa.json", { method: "POST", path: "/api/projects/ghost/handoffs", body: { markdown: "x", sessionId: "g" }, what: "a handoff to nowhere", createdAt: new Date().toISOString() });
    write("00000000000002-1-bbbbbbbb.json", "{ half a file");
    write("00000000000003-1-cccccccc.json", { method: "POST", path: "/api/projects/web/handoffs", body: { markdown: "Spooled by hand.", sessionId: "hand" }, what: "a handoff", createdAt: new Date().toISOString() });
    // The session-start hook gives the spool half its time limit: a generous one, as a loaded machine is slow.
    const result = await runBaton(["hook", "session-start"], { cwd: repo, env: homeEnv(home3, { BATON_URL: server.url, BATON_TOKEN: token, BATON_TIMEOUT_MS: SLOW_MACHINE_TIMEOUT_MS }), input: "{}" });
    expect(result.code).toBe(0);
    expect(spoolFiles(home3)).toEqual([]);
    expect(hookLog(home3)).toMatch(/dropped a handoff to nowhere .*404/);
    expect(hookLog(home3)).toMatch(/dropped unreadable 00000000000002-1-bbbbbbbb\.json/);
    expect(await handoffsOf("hand")).toHaveLength(1);
  });

  it("a bad token keeps the spool for later (the token can be fixed)", async () => {
    const home4 = path.join(tmp.dir, "home-badtoken");
    const dir = path.join(home4, ".cache", "baton", "spool");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "00000000000001-1-dddddddd.json"), JSON.stringify({ method: "POST", path: "/api/proposals", body: { kind: "pattern", content: "Keep me" }, what: "a proposal", createdAt: new Date().toISOString() }));
    const result = await runBaton(["hook", "session-start"], { cwd: repo, env: homeEnv(home4, { BATON_URL: server.url, BATON_TOKEN: "baton_wrong" }), input: "{}" });
    expect(result.code).toBe(0);
    expect(spoolFiles(home4)).toEqual(["00000000000001-1-dddddddd.json"]);
  });

  it("uses the configured summariser instead of the extractive handoff", async () => {
    const home5 = path.join(tmp.dir, "home-summariser");
    const script = path.join(tmp.dir, "summarise.mjs");
    writeFileSync(script, `import { readFileSync } from "node:fs";\nconst file = readFileSync(0, "utf8").trim();\nconst lines = readFileSync(file, "utf8").trim().split("\\n").length;\nprocess.stdout.write("Summarised " + lines + " transcript lines.\\n");\n`);
    writeUserConfig(home5, { url: server.url, token, summariser: `node ${script}` });
    const result = await runBaton(["hook", "session-end"], { cwd: repo, env: homeEnv(home5), input: input("session-end.json", { session_id: "summarised" }) });
    expect(result.code).toBe(0);
    await waitFor("the worker", () => /session-end worker \(SessionEnd\): sent/.test(hookLog(home5)));
    const [handoff] = await handoffsOf("summarised");
    expect(handoff!.markdown).toBe(`Summarised ${fixture("transcript.jsonl").trim().split("\n").length} transcript lines.\n`);
  });

  it("a repository's .baton.json cannot set a summariser", async () => {
    const home6 = path.join(tmp.dir, "home-repo-summariser");
    const evil = makeRepo(path.join(tmp.dir, "src", "evil"), { commits: ["x"] });
    const marker = path.join(tmp.dir, "pwned");
    writeFileSync(path.join(evil, ".baton.json"), JSON.stringify({ project: "web", summariser: `touch ${marker}` }));
    const result = await runBaton(["hook", "session-end"], {
      cwd: evil,
      env: homeEnv(home6, { BATON_URL: server.url, BATON_TOKEN: token }),
      input: JSON.stringify({ ...JSON.parse(input("session-end.json")), cwd: evil, session_id: "evil" }),
    });
    expect(result.code).toBe(0);
    await waitFor("the worker", () => /session-end worker \(SessionEnd\): sent/.test(hookLog(home6)));
    expect(await handoffsOf("evil")).toHaveLength(1);
    expect(existsSync(marker)).toBe(false);
  });

  it("what was spooled for one server waits for that server: another configured later is not sent it", async () => {
    const home7 = path.join(tmp.dir, "home-two-servers");
    const port = await freePort();
    const serverA = `http://127.0.0.1:${port}`;
    const envFor = (url: string) => homeEnv(home7, { BATON_URL: url, BATON_TOKEN: token, BATON_TIMEOUT_MS: SLOW_MACHINE_TIMEOUT_MS });
    const end = await runBaton(["hook", "session-end"], { cwd: repo, env: envFor(serverA), input: input("session-end.json", { session_id: "for-a" }) });
    expect(end.code).toBe(0);
    await waitFor("the worker to spool", () => jobsLeft(home7) === 0 && /session-end worker \(SessionEnd\): sent 0, spooled 4/.test(hookLog(home7)));
    const spooled = spoolFiles(home7);
    expect(spooled.map((f) => JSON.parse(readFileSync(path.join(home7, ".cache", "baton", "spool", f), "utf8")).server)).toEqual(Array(4).fill(serverA));

    // Server B (here the same one under another address) is configured now: A's requests stay where they are.
    const other = await runBaton(["hook", "session-start"], { cwd: repo, env: envFor(server.url), input: JSON.stringify({ session_id: "on-b", cwd: repo }) });
    expect(other.code).toBe(0);
    expect(spoolFiles(home7)).toEqual(spooled);
    expect(await handoffsOf("for-a")).toEqual([]);
    // Nor do they hold back a checkpoint of another session for B.
    const checkpoint = await runBaton(["hook", "pre-compact"], { cwd: repo, env: envFor(server.url), input: input("stop.json", { session_id: "checkpoint-on-b", hook_event_name: "PreCompact" }) });
    expect(checkpoint.code).toBe(0);
    expect(hookLog(home7)).toMatch(/pre-compact: checkpoint sent 1, spooled 0/);
    expect(spoolFiles(home7)).toEqual(spooled);

    // A answers again: the next hook run configured with A sends them.
    const a = await recordingProxy(server.url, { port });
    try {
      const back = await runBaton(["hook", "session-start"], { cwd: repo, env: envFor(serverA), input: JSON.stringify({ session_id: "on-a", cwd: repo }) });
      expect(back.code).toBe(0);
      expect(spoolFiles(home7)).toEqual([]);
      expect(a.requests.filter((r) => r.method === "POST").map((r) => r.url)).toEqual(["/api/handoffs", "/api/proposals", "/api/proposals", "/api/proposals"]);
      expect(await handoffsOf("for-a")).toHaveLength(1);
    } finally {
      await a.close();
    }
  });
});
