import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProcess } from "../support/run-process";
import { ROOT } from "../support/server";
import { testWorld } from "../support/world";
import { fixture, hookContext, homeEnv, makeRepo, PATIENT_HOOKS, removeAfterWorkers, runBaton, waitFor } from "../fixtures/cli/cli-env";

// The hooks where the agent's machine is odd: the folder the session ran in deleted (a removed git
// worktree), a cache folder that cannot be written, input with a byte order mark or over the size
// limit. The session still reaches the server. The real
// CLI as a child process (its detached session-end worker too), the real server.

const world = testWorld({ users: ["ana"], projects: { web: "ana" }, members: [], tokens: {} });
let repo: string;
let transcriptPath: string;
let n = 0;
const freshHome = () => path.join(world.dir, "homes", `h${++n}`);
const env = (home: string, extra: Record<string, string> = {}) =>
  homeEnv(home, { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana!, BATON_PROJECT: "web", ...PATIENT_HOOKS, ...extra });
const endInput = (sessionId: string, cwd: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ ...JSON.parse(fixture("hooks/session-end.json")), session_id: sessionId, cwd, transcript_path: transcriptPath, ...extra });
const handoffsOf = async (sessionId: string) =>
  ((await world.as("ana")("GET", "/api/projects/web/handoffs?limit=100")).json.items as { sessionId: string | null; markdown: string }[]).filter((h) => h.sessionId === sessionId);
const hookLogOf = (home: string) => {
  const file = path.join(home, ".cache", "baton", "hook.log");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
};
const handoffArrives = (sessionId: string) => waitFor(`the handoff of ${sessionId}`, async () => (await handoffsOf(sessionId)).length === 1);

/** `baton hook <event>` run from a folder deleted just before it starts: process.cwd() throws (ENOENT uv_cwd). */
function runInDeletedFolder(folder: string, args: string[], options: { env: Record<string, string>; input: string }) {
  mkdirSync(folder, { recursive: true });
  const script = 'cd "$1" && rm -rf "$1" && shift && exec "$@"';
  return runProcess("/bin/sh", ["-c", script, "sh", folder, process.execPath, path.join(ROOT, "cli/bin/baton.mjs"), ...args], { ...options, cwd: ROOT });
}

beforeAll(async () => {
  repo = makeRepo(path.join(world.dir, "src", "web"), { branch: "feat/revoke", remote: "https://github.com/acme/web.git", commits: ["Token list"] });
  transcriptPath = path.join(world.dir, "transcript.jsonl");
  writeFileSync(transcriptPath, fixture("transcript.jsonl").replaceAll("/home/ana/src/web", repo));
  expect((await world.as("ana")("POST", "/api/projects/web/handoffs", { markdown: "Did: the web handoff everyone sees.", sessionId: "seed" })).status).toBe(201);
});
afterAll(async () => {
  // Detached workers may still be writing their log.
  await removeAfterWorkers(() => undefined);
});

describe("the folder the session ran in was deleted (a removed worktree)", () => {
  it("session-end still posts the session's handoff", async () => {
    const worktree = path.join(world.dir, "worktrees", "gone-1");
    const result = await runInDeletedFolder(worktree, ["hook", "session-end"], { env: env(freshHome()), input: endInput("gone-1", worktree) });
    expect([result.code, result.stdout, result.stderr]).toEqual([0, "", ""]);
    await handoffArrives("gone-1");
  });

  it("session-start started there still answers with the session's context, not an error", async () => {
    const worktree = path.join(world.dir, "worktrees", "gone-2");
    const result = await runInDeletedFolder(worktree, ["hook", "session-start"], { env: env(freshHome()), input: JSON.stringify({ session_id: "gone-2", cwd: repo, source: "startup" }) });
    expect(result.code).toBe(0);
    const context = hookContext(result.stdout);
    expect(context).not.toContain("ENOENT");
    expect(context).toContain("Queued sessions in web: 0");
  });
});

describe("the cache folder cannot be written", () => {
  it("XDG_CACHE_HOME naming a file: session-end writes its job in a temporary folder and the handoff arrives", async () => {
    const home = freshHome();
    const notAFolder = path.join(world.dir, "cache-is-a-file");
    writeFileSync(notAFolder, "");
    const result = await runBaton(["hook", "session-end"], { cwd: repo, env: env(home, { XDG_CACHE_HOME: notAFolder }), input: endInput("no-cache", repo) });
    expect([result.code, result.stdout, result.stderr]).toEqual([0, "", ""]);
    await handoffArrives("no-cache");
  });
});

describe("hook input as some agents and shells send it", () => {
  const BOM = "\uFEFF";

  it("a UTF-8 byte order mark before the JSON: session-start answers with the context, session-end posts the session", async () => {
    const start = await runBaton(["hook", "session-start"], { cwd: repo, env: env(freshHome()), input: BOM + JSON.stringify({ session_id: "bom-1", cwd: repo, source: "startup" }) });
    expect(start.code).toBe(0);
    const context = hookContext(start.stdout);
    expect(context).not.toContain("context unavailable");
    expect(context).toContain("Queued sessions in web: 0");
    const end = await runBaton(["hook", "session-end"], { cwd: repo, env: env(freshHome()), input: BOM + endInput("bom-2", repo) });
    expect([end.code, end.stderr]).toEqual([0, ""]);
    await handoffArrives("bom-2");
  });

  it("a Stop input over 4 MB (a huge last message): said to be too large, and the session is ended from its ids", async () => {
    const home = freshHome();
    const huge = JSON.stringify({ ...JSON.parse(fixture("hooks/stop.json")), session_id: "huge-1", cwd: repo, transcript_path: transcriptPath, last_assistant_message: "x".repeat(5 * 1024 * 1024) });
    const stop = await runBaton(["hook", "stop"], { cwd: repo, env: env(home), input: huge });
    expect([stop.code, stop.stdout, stop.stderr]).toEqual([0, "", ""]);
    await handoffArrives("huge-1");
    expect(hookLogOf(home)).toMatch(/session-end: the hook input on stdin is too large \(over 4 MB\); ending the session from its ids \(session_id, transcript_path, cwd, hook_event_name\)/);
  });
});

describe("a .baton.json as people write it", () => {
  /** A repository with no remote, named after no project: only its .baton.json names one. */
  const repoWith = (name: string, baton: string) => {
    const dir = makeRepo(path.join(world.dir, "src", name), { commits: ["One"] });
    writeFileSync(path.join(dir, ".baton.json"), baton);
    mkdirSync(path.join(dir, "pkg"));
    return dir;
  };
  const ownEnv = (home: string) => homeEnv(home, { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana!, ...PATIENT_HOOKS });

  it("as a Windows editor writes it (a byte order mark, CRLF): the session starts in its project, and its handoff is stored there", async () => {
    const windows = repoWith("windows-made", '\uFEFF{ "project": "web" }\r\n');
    const home = freshHome();
    const start = await runBaton(["hook", "session-start"], { cwd: windows, env: ownEnv(home), input: JSON.stringify({ session_id: "crlf-1", cwd: windows, source: "startup" }) });
    expect(start.code).toBe(0);
    expect(hookContext(start.stdout)).toContain("Queued sessions in web: 0");
    const end = await runBaton(["hook", "session-end"], { cwd: windows, env: ownEnv(home), input: endInput("crlf-1", windows) });
    expect([end.code, end.stderr]).toEqual([0, ""]);
    await handoffArrives("crlf-1");
    expect(hookLogOf(home)).not.toContain(".baton.json");
  });

  it("not JSON (a trailing comma): hook.log names the file and why, once per hook run, the session-end worker's too", async () => {
    const comma = repoWith("trailing-comma", '{ "project": "web", }\n');
    const home = freshHome();
    const named = `${path.join(comma, ".baton.json")} is not valid JSON (`;
    // Started in a subfolder of the session's: the configuration is read twice, and named once.
    const start = await runBaton(["hook", "session-start"], { cwd: path.join(comma, "pkg"), env: ownEnv(home), input: JSON.stringify({ session_id: "comma-1", cwd: comma, source: "startup" }) });
    expect(start.code).toBe(0);
    expect(hookLogOf(home).split(`session-start: ${named}`).length - 1).toBe(1);
    const end = await runBaton(["hook", "session-end"], { cwd: comma, env: ownEnv(home), input: endInput("comma-1", comma) });
    expect([end.code, end.stderr]).toEqual([0, ""]);
    await waitFor("the worker's line", () => hookLogOf(home).includes(`session-end worker: ${named}`));
  });
});

describe("config files that never end, and a cwd that is a file", () => {
  /** The real CLI, killed if it runs past `ms`: a hook that hangs fails the test with code null. */
  const runHook = (args: string[], options: { cwd: string; env: Record<string, string>; input: string }) =>
    runProcess(process.execPath, [path.join(ROOT, "cli/bin/baton.mjs"), ...args], { ...options, timeoutMs: 20_000 });

  it("a cloned .baton.json that is a symlink to /dev/zero, or a config.json that is a FIFO: session-start answers, with the context", async () => {
    const cloned = makeRepo(path.join(world.dir, "src", "zero"), { remote: "https://github.com/acme/web.git", commits: ["One"] });
    symlinkSync("/dev/zero", path.join(cloned, ".baton.json"));
    const home = freshHome();
    mkdirSync(path.join(home, ".config", "baton"), { recursive: true });
    execFileSync("mkfifo", [path.join(home, ".config", "baton", "config.json")]);
    for (const [cwd, hookHome] of [[cloned, freshHome()], [repo, home], [cloned, home]] as const) {
      const start = await runHook(["hook", "session-start"], { cwd, env: env(hookHome), input: JSON.stringify({ session_id: `zero-${++n}`, cwd, source: "startup" }) });
      expect(start.code, start.stderr).toBe(0);
      const context = hookContext(start.stdout);
      expect(context).not.toContain("context unavailable");
      expect(context).toContain("Queued sessions in web: 0");
    }
    const prompt = await runHook(["hook", "prompt"], { cwd: cloned, env: env(home), input: JSON.stringify({ session_id: "zero-p", cwd: cloned, prompt: "what about the token list" }) });
    expect(prompt.code, prompt.stderr).toBe(0);
  });

  it("a cwd that names a file: session-end starts its worker in a folder that exists, and the handoff arrives", async () => {
    const result = await runBaton(["hook", "session-end"], { cwd: repo, env: env(freshHome()), input: endInput("file-cwd", transcriptPath) });
    expect([result.code, result.stdout, result.stderr]).toEqual([0, "", ""]);
    await handoffArrives("file-cwd");
  });

  it("an input nested deeper than JSON.stringify can write: the session still ends, with the fields that can be written", async () => {
    const home = freshHome();
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const input = endInput("deep-1", repo).replace(/^\{/, `{"nested":${deep},`);
    const result = await runBaton(["hook", "session-end"], { cwd: repo, env: env(home), input });
    expect([result.code, result.stdout, result.stderr]).toEqual([0, "", ""]);
    await handoffArrives("deep-1");
    expect(hookLogOf(home)).toContain("left out of the job what cannot be written as JSON (nested)");
  });
});
