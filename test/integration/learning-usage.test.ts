import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git, homeEnv, makeRepo, removeAfterWorkers, runBaton, waitFor } from "../fixtures/cli/cli-env";
import { tempDir } from "../support/server";
import { testWorld } from "../support/world";

// Issue 27, items 2 and 4, on a made-up history: ana's session in her repository (project alpha) is
// given alpha's learnings at its start; its transcript (made up, Claude Code's format) edits one
// learning's file, runs another's command, deletes a third's file and rewrites a fourth's. The real CLI's
// session-end worker decides, on this machine, which learnings the session touched and which to flag,
// and posts only that. Real server, real database file, the CLI as a child process.
const world = testWorld({ users: ["ana", "bo", "cy"], projects: { alpha: "ana" }, members: [{ project: "alpha", user: "cy", role: "viewer" }], tokens: {} });
const { as } = world;
const tmp = tempDir("baton-usage-");
afterAll(() => removeAfterWorkers(tmp.remove));

/** Words of the session no verdict carries: they must never reach the server. */
const PRIVATE = "the-private-prompt-words-kumquat";
const SESSION = "5a1e0c3d-0000-4000-8000-00000000usage";

let repo: string;
let n = 0;
const learningIds: Record<string, string> = {};

/** Requests the worker sent to the usage route, bodies included, through a proxy in front of the real server. */
const posted: { method: string; url: string; body: string }[] = [];
let proxyUrl = "";
let closeProxy = () => {};

const LEARNINGS = {
  edited: "Change src/keep.ts only through the generator.",
  untouched: "Deploys go out on Tuesdays, never on Fridays.",
  command: "Run `npm run gen:types` after changing the schema.",
  deleted: "The legacy parser in src/doomed.ts reads the old format.",
  rewritten: "src/rewrite.ts keeps the retry loop small.",
  missing: "Feature flags are read in src/gone/flags.ts at start.",
};

const lines = (k: number, word: string) => Array.from({ length: k }, (_, i) => `export const ${word}${i} = ${i};`).join("\n") + "\n";

function transcriptLine(type: "user" | "assistant", content: unknown, i: number): string {
  return JSON.stringify({ parentUuid: null, isSidechain: false, type, cwd: repo, sessionId: SESSION, message: { role: type, content }, uuid: `u-${i}`, timestamp: `2026-11-26T10:00:${String(i).padStart(2, "0")}.000Z` });
}

/** The made-up session: what Claude Code would have written for it. */
function writeTranscript(): string {
  const tool = (id: string, name: string, input: Record<string, unknown>) => ({ type: "tool_use", id, name, input });
  const result = (id: string, text: string) => [{ type: "tool_result", tool_use_id: id, content: text }];
  const events = [
    transcriptLine("user", `Tidy the parsers please (${PRIVATE}).`, 1),
    transcriptLine("assistant", [tool("t1", "Edit", { file_path: path.join(repo, "src/keep.ts"), old_string: "keep0", new_string: "kept0" })], 2),
    transcriptLine("user", result("t1", "ok"), 3),
    transcriptLine("assistant", [tool("t2", "Bash", { command: "npm run gen:types" })], 4),
    transcriptLine("user", result("t2", "done"), 5),
    transcriptLine("assistant", [tool("t3", "Bash", { command: "rm src/doomed.ts" })], 6),
    transcriptLine("user", result("t3", ""), 7),
    transcriptLine("assistant", [tool("t4", "Write", { file_path: path.join(repo, "src/rewrite.ts"), content: lines(10, "fresh") })], 8),
    transcriptLine("user", result("t4", "ok"), 9),
    transcriptLine("assistant", "Done: the parsers are tidy.", 10),
  ];
  const file = path.join(tmp.dir, "transcript.jsonl");
  writeFileSync(file, events.join("\n") + "\n");
  return file;
}

async function hook(name: "session-start" | "session-end", transcriptPath: string, url = world.server.url) {
  const home = path.join(tmp.dir, "homes", `h${++n}`);
  const event = name === "session-start" ? "SessionStart" : "SessionEnd";
  const env = homeEnv(home, { BATON_URL: url, BATON_TOKEN: world.tokens.ana!, BATON_TIMEOUT_MS: "8000" });
  const input = JSON.stringify({ session_id: SESSION, transcript_path: transcriptPath, cwd: repo, hook_event_name: event, source: "startup", reason: "prompt_input_exit" });
  const result = await runBaton(["hook", name], { cwd: repo, env, input });
  expect(result.code, result.stderr).toBe(0);
  return home;
}

/** Ends the session and waits for the worker's usage step (its line in the hook log). */
async function endSession(transcriptPath: string): Promise<string> {
  const home = await hook("session-end", transcriptPath, proxyUrl);
  return waitFor("the session-end worker's usage step", () => {
    const log = path.join(home, ".cache", "baton", "hook.log");
    const text = existsSync(log) ? readFileSync(log, "utf8") : "";
    return /session-end worker: usage: /.test(text) ? text : null;
  });
}

const usageRows = () => world.sql("SELECT learning_id, touched, how FROM learning_usage WHERE session_id = ? ORDER BY learning_id", [SESSION]);
const learning = async (key: keyof typeof LEARNINGS) => (await as("ana")("GET", `/api/learnings/${learningIds[key]}`)).json.learning;

beforeAll(async () => {
  const proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (req.url?.startsWith("/api/context/usage")) posted.push({ method: req.method ?? "GET", url: req.url, body: body.toString("utf8") });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "connection" && k !== "content-length") headers[k] = v;
    const upstream = await fetch(world.server.url + req.url, { method: req.method, headers, body: body.length ? body : undefined });
    res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  closeProxy = () => proxy.close();

  repo = makeRepo(path.join(tmp.dir, "repo"));
  mkdirSync(path.join(repo, "src"), { recursive: true });
  writeFileSync(path.join(repo, ".baton.json"), JSON.stringify({ project: "alpha" }));
  writeFileSync(path.join(repo, "src/keep.ts"), lines(10, "keep"));
  writeFileSync(path.join(repo, "src/doomed.ts"), lines(10, "doomed"));
  writeFileSync(path.join(repo, "src/rewrite.ts"), lines(10, "old"));
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "start");
  for (const [key, content] of Object.entries(LEARNINGS)) {
    const res = await as("ana")("POST", "/api/learnings", { kind: "pattern", project: "alpha", content, confirmed: true });
    expect(res.status, res.text).toBe(201);
    learningIds[key] = res.json.learning.id;
  }
  await hook("session-start", path.join(tmp.dir, "none.jsonl"));
  await waitFor("the session's start to be recorded", async () => (await world.sql("SELECT 1 FROM session_served WHERE session_id = ?", [SESSION])).length > 0);
  // What the session did to the working tree, as its transcript says.
  rmSync(path.join(repo, "src/doomed.ts"));
  writeFileSync(path.join(repo, "src/rewrite.ts"), lines(10, "fresh"));
  writeFileSync(path.join(repo, "src/keep.ts"), lines(10, "keep").replace("keep0", "kept0"));
});
afterAll(() => closeProxy());

describe("learnings name files, found at write time", () => {
  it("a learning keeps the paths its text names, and none from prose", async () => {
    expect((await learning("edited")).files).toEqual(["src/keep.ts"]);
    expect((await learning("untouched")).files).toEqual([]);
    expect((await learning("missing")).files).toEqual(["src/gone/flags.ts"]);
  });

  it("an accepted proposal's learning also keeps the files its evidence names", async () => {
    const evidence = [{ turn: 2, at: null, who: "tool", text: "Edit lib/queue/worker.ts: retry with backoff" }];
    const p = await as("ana")("POST", "/api/proposals", { kind: "pattern", project: "alpha", content: "Queue retries back off; see docs/queue.md.", evidence, lesson: "fact" });
    expect(p.status, p.text).toBe(201);
    const accepted = await as("ana")("POST", `/api/proposals/${p.json.proposal.id}/accept`, {});
    expect(accepted.json.learning.files).toEqual(["docs/queue.md", "lib/queue/worker.ts"]);
  });
});

describe("the session-end worker reports used or not, and flags", () => {
  it("touched by its file or its command; untouched stays untouched; deleted, rewritten and missing files flag their learnings", async () => {
    await endSession(writeTranscript());
    const rows = await usageRows();
    const verdict = (key: keyof typeof LEARNINGS) => rows.find((r) => r.learning_id === learningIds[key]);
    expect(verdict("edited")).toMatchObject({ touched: 1, how: "file" });
    expect(verdict("command")).toMatchObject({ touched: 1, how: "command" });
    expect(verdict("untouched")).toMatchObject({ touched: 0, how: null });
    expect(rows).toHaveLength(Object.keys(LEARNINGS).length);

    expect((await learning("deleted")).flag).toMatchObject({ reason: "deleted", file: "src/doomed.ts", session: SESSION });
    expect((await learning("rewritten")).flag).toMatchObject({ reason: "rewritten", file: "src/rewrite.ts" });
    expect((await learning("missing")).flag).toMatchObject({ reason: "missing", file: "src/gone/flags.ts" });
    expect((await learning("edited")).flag).toBeNull();
    expect((await learning("untouched")).flag).toBeNull();
  });

  it("nothing of the transcript reaches the server: only ids, verdicts and flags", async () => {
    const reports = posted.filter((p) => p.method === "POST");
    expect(reports.length).toBeGreaterThan(0);
    for (const report of reports) {
      expect(report.body).not.toContain(PRIVATE);
      expect(report.body).not.toContain("gen:types");
      const body = JSON.parse(report.body) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(["flags", "sessionId", "verdicts"]);
      for (const v of body.verdicts as Record<string, unknown>[]) expect(Object.keys(v).sort()).toEqual(["how", "id", "touched"]);
      for (const f of body.flags as Record<string, unknown>[]) expect(Object.keys(f).sort()).toEqual(["file", "id", "reason"]);
    }
    // What the worker asked for carries the session's id and nothing else.
    for (const asked of posted.filter((p) => p.method === "GET")) expect(asked.url).toBe(`/api/context/usage?sessionId=${SESSION}`);
  });

  it("a session reported twice counts once", async () => {
    const before = await usageRows();
    await endSession(writeTranscript());
    expect(await usageRows()).toEqual(before);
    const direct = await as("ana")("POST", "/api/context/usage", { sessionId: SESSION, verdicts: [{ id: learningIds.untouched, touched: true, how: "words" }] });
    expect(direct.status, direct.text).toBe(200);
    expect(direct.json).toMatchObject({ recorded: 0 });
    expect(await usageRows()).toEqual(before);
  });

  it("an edit clears a flag: clearing it, or changing the text (which names its files anew)", async () => {
    expect((await learning("missing")).flag).toMatchObject({ reason: "missing" });
    const cleared = await as("ana")("PATCH", `/api/learnings/${learningIds.missing}`, { flagged: false });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.json.learning.flag).toBeNull();
    expect((await learning("deleted")).flag).toMatchObject({ reason: "deleted" });
    const edited = await as("ana")("PATCH", `/api/learnings/${learningIds.deleted}`, { content: "The legacy parser moved to src/parsers/legacy.ts." });
    expect(edited.json.learning).toMatchObject({ flag: null, files: ["src/parsers/legacy.ts"] });
  });
});

describe("another user's session and learnings are out of scope", () => {
  it("bo cannot read ana's session, nor report on it: 404", async () => {
    const own = await as("ana")("GET", `/api/context/usage?sessionId=${SESSION}`);
    expect(own.status, own.text).toBe(200);
    expect(own.json.given.map((l: { id: string }) => l.id)).toContain(learningIds.edited);
    const read = await as("bo")("GET", `/api/context/usage?sessionId=${SESSION}`);
    expect(read.status, read.text).toBe(404);
    expect(read.json).toMatchObject({ ok: false, error: { code: "not_found" } });
    const before = await world.sql("SELECT count(*) AS n FROM learning_usage");
    const report = await as("bo")("POST", "/api/context/usage", { sessionId: SESSION, verdicts: [{ id: learningIds.untouched, touched: true, how: "file" }], flags: [{ id: learningIds.edited, reason: "deleted", file: "src/keep.ts" }] });
    expect(report.status, report.text).toBe(404);
    expect(await world.sql("SELECT count(*) AS n FROM learning_usage")).toEqual(before);
    expect((await learning("edited")).flag).toBeNull();
  });

  it("a report of learnings the session was not given, or of files they do not name, is ignored", async () => {
    const personal = (await as("bo")("POST", "/api/learnings", { kind: "pattern", content: "bo keeps notes in notes/todo.md" })).json.learning.id as string;
    const res = await as("ana")("POST", "/api/context/usage", { sessionId: SESSION, verdicts: [{ id: personal, touched: true, how: "file" }], flags: [{ id: learningIds.edited, reason: "deleted", file: "src/other.ts" }] });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ recorded: 0, flagged: 0, ignored: 2 });
    expect(await world.sql("SELECT count(*) AS n FROM learning_usage WHERE learning_id = ?", [personal])).toEqual([{ n: 0 }]);
  });

  it("a viewer's session records its own verdicts but flags none of the project's learnings", async () => {
    const session = "viewer-session-usage";
    expect((await as("cy")("GET", `/api/context?project=alpha&sessionId=${session}&source=startup`)).status).toBe(200);
    const asked = await as("cy")("GET", `/api/context/usage?sessionId=${session}`);
    expect(asked.status, asked.text).toBe(200);
    expect(asked.json.given.map((l: { id: string }) => l.id)).toContain(learningIds.untouched);
    expect(asked.json.named).toEqual([]);
    const shared = await as("ana")("POST", "/api/learnings", { kind: "pattern", project: "alpha", content: "The cron table lives in src/cron.ts.", confirmed: true });
    const flags = [{ id: shared.json.learning.id, reason: "deleted", file: "src/cron.ts" }, { id: learningIds.edited!, reason: "missing", file: "src/keep.ts" }];
    const res = await as("cy")("POST", "/api/context/usage", { sessionId: session, verdicts: [{ id: learningIds.untouched, touched: false }], flags });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ recorded: 1, flagged: 0, ignored: 2 });
    expect((await as("ana")("GET", `/api/learnings/${shared.json.learning.id}`)).json.learning.flag).toBeNull();
    expect((await learning("edited")).flag).toBeNull();
  });

  it("bad input is a 400", async () => {
    const res = await as("ana")("POST", "/api/context/usage", { sessionId: SESSION, verdicts: [{ id: "x", touched: "yes" }] });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ ok: false, error: { code: "validation_failed" } });
  });
});
