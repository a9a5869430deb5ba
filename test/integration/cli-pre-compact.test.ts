import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, tempDir } from "../support/server";
import { testWorld } from "../support/world";
import { fixture, hookContext, homeEnv, makeRepo, NODE_START_MS, recordingProxy, removeAfterWorkers, runBaton, waitFor } from "../fixtures/cli/cli-env";

// `baton hook pre-compact` (PreCompact) as Claude Code runs it before summarising a conversation away:
// a checkpoint handoff of the transcript so far, under the session's id. The context after the
// compaction (source=compact) leads with it; the session's SessionEnd handoff replaces it.

const world = testWorld({ users: ["ana"], projects: { web: "ana", other: "ana" }, members: [], tokens: { anaOther: { user: "ana", projects: ["other"] } } });
const tmp = tempDir("baton-cli-pre-compact-");
afterAll(async () => {
  // The session-end worker runs detached and may still be writing its log.
  await removeAfterWorkers(tmp.remove);
});

type Handoff = { sessionId: string | null; markdown: string; branch: string | null };
let repo: string;
let transcriptPath: string;
const env = (home: string, extra: Record<string, string> = {}) => homeEnv(path.join(tmp.dir, home), { BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana!, ...extra });
const input = (sessionId: string, event: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: sessionId, transcript_path: transcriptPath, cwd: repo, hook_event_name: event, ...extra });
const handoffsOf = async (sessionId: string, project = "web") =>
  ((await world.as("ana")("GET", `/api/projects/${project}/handoffs?limit=100`)).json.items as Handoff[]).filter((h) => h.sessionId === sessionId);
const spoolOf = (home: string) => {
  const dir = path.join(tmp.dir, home, ".cache", "baton", "spool");
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};
const hookLogOf = (home: string) => {
  const file = path.join(tmp.dir, home, ".cache", "baton", "hook.log");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
};
const compactStart = (sessionId: string, home: string, extra: Record<string, string> = {}) =>
  runBaton(["hook", "session-start"], { cwd: repo, env: env(home, { BATON_TIMEOUT_MS: "8000", ...extra }), input: input(sessionId, "SessionStart", { source: "compact" }) });

beforeAll(() => {
  repo = makeRepo(path.join(tmp.dir, "src", "web"), { branch: "feat/revoke", remote: "https://github.com/acme/web.git", commits: ["Token list"] });
  transcriptPath = path.join(tmp.dir, "transcript.jsonl");
  writeFileSync(transcriptPath, fixture("transcript.jsonl").replaceAll("/home/ana/src/web", repo));
});

describe("baton hook pre-compact", () => {
  const session = "c0mpact1-0000-4000-8000-000000000001";

  it("posts the transcript so far as the session's checkpoint handoff, prints nothing, exits 0", async () => {
    const result = await runBaton(["hook", "pre-compact"], { cwd: repo, env: env("home"), input: input(session, "PreCompact", { trigger: "auto", custom_instructions: "" }) });
    expect([result.code, result.stdout, result.stderr]).toEqual([0, "", ""]);
    const [checkpoint, ...more] = await handoffsOf(session);
    expect(more).toEqual([]);
    expect(checkpoint!.branch).toBe("feat/revoke");
    expect(checkpoint!.markdown).toMatch(/^Checkpoint before compaction · Session c0mpact1 · 3 requests · 3 files changed \(extracted from the transcript by baton\)/);
    expect(checkpoint!.markdown).toContain("### Files touched\n- components/tokens/token-list.tsx (edited)");
  });

  it("after the compaction, the context leads with that checkpoint, not with the branch's newer handoff", async () => {
    const other = await world.as("ana")("POST", "/api/projects/web/handoffs", { markdown: "Did: another session's newer work.", branch: "feat/revoke", sessionId: "other" });
    expect(other.status).toBe(201);
    const result = await compactStart(session, "home");
    expect(result.code).toBe(0);
    const context = hookContext(result.stdout);
    expect(context).toMatch(/^## This session before its compaction \(checkpoint, (just now|\d+ min ago), branch feat\/revoke, by ana, Claude Code\), quoted:\n> Checkpoint before compaction · Session c0mpact1/);
    expect(context).not.toContain("another session's newer work");
    // A new session is given the branch's latest, as before.
    const fresh = await runBaton(["hook", "session-start"], { cwd: repo, env: env("home"), input: input("fresh", "SessionStart", { source: "startup" }) });
    expect(hookContext(fresh.stdout)).toContain("Did: another session's newer work.");
  });

  it("the session's end replaces the checkpoint: one handoff for the session, not two", async () => {
    const result = await runBaton(["hook", "session-end"], { cwd: repo, env: env("home"), input: input(session, "SessionEnd", { reason: "prompt_input_exit" }) });
    expect(result.code).toBe(0);
    const handoffs = await waitFor("the session-end worker to replace the checkpoint", async () => {
      const found = await handoffsOf(session);
      return found.length === 1 && !found[0]!.markdown.startsWith("Checkpoint") ? found : null;
    });
    expect(handoffs[0]!.markdown).toMatch(/^Session c0mpact1 · \d+ requests/);
  });

  it("with the server down: exits 0 in time having spooled it, and the session start after the compaction sends it first", async () => {
    const downSession = "c0mpact2-0000-4000-8000-000000000002";
    const home = "home-down";
    const closed = `http://127.0.0.1:${await freePort()}`;
    const result = await runBaton(["hook", "pre-compact"], { cwd: repo, env: env(home, { BATON_URL: closed }), input: input(downSession, "PreCompact", { trigger: "manual" }) });
    expect([result.code, result.stdout]).toEqual([0, ""]);
    expect(result.ms).toBeLessThan(2000 + NODE_START_MS);
    const spool = path.join(tmp.dir, home, ".cache", "baton", "spool");
    expect(existsSync(spool) ? readdirSync(spool) : []).toHaveLength(1);
    expect(await handoffsOf(downSession)).toEqual([]);
    // The server answers at that address again (a proxy there, in front of the real one).
    const up = await recordingProxy(world.server.url, { port: Number(new URL(closed).port) });
    const after = await compactStart(downSession, home, { BATON_URL: closed }).finally(() => up.close());
    expect(hookContext(after.stdout)).toMatch(/^## This session before its compaction \(checkpoint, /);
    expect(readdirSync(spool)).toEqual([]);
  });

  it("a checkpoint that took the time limit to make is spooled at once, and the session start after the compaction sends it", async () => {
    // A long session of small steps: reading and redacting it is what takes the time (the limit is
    // made short here to see it on any machine; 30 MB of them took 2.3–3.6 s of a 2 s limit).
    const long = "c0mpact3-0000-4000-8000-000000000003";
    const home = "home-long";
    const steps = Array.from({ length: 20_000 }, (_, i) => [
      { type: "assistant", sessionId: long, timestamp: new Date(Date.UTC(2026, 10, 28, 10, 0, i)).toISOString(), message: { role: "assistant", content: [{ type: "text", text: `Step ${i}: checking file ${i}.` }, { type: "tool_use", id: `t${i}`, name: "Bash", input: { command: `grep -n foo src/f${i}.ts` } }] } },
      { type: "user", sessionId: long, message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: "src/f.ts:1: foo bar baz ".repeat(8) }] } },
    ]);
    const first = { type: "user", sessionId: long, cwd: repo, message: { role: "user", content: "Refactor the parser, file by file." } };
    const file = path.join(tmp.dir, "long.jsonl");
    writeFileSync(file, [first, ...steps.flat()].map((e) => JSON.stringify(e)).join("\n") + "\n");
    const stdin = JSON.stringify({ session_id: long, transcript_path: file, cwd: repo, hook_event_name: "PreCompact", trigger: "auto" });
    const result = await runBaton(["hook", "pre-compact"], { cwd: repo, env: env(home, { BATON_TIMEOUT_MS: "300" }), input: stdin });
    expect([result.code, result.stdout]).toEqual([0, ""]);
    expect(spoolOf(home), hookLogOf(home)).toHaveLength(1);
    const after = await compactStart(long, home);
    expect(hookContext(after.stdout)).toMatch(/^## This session before its compaction \(checkpoint, [^\n]*branch feat\/revoke[^\n]*\n> Checkpoint before compaction · Session c0mpact3 · /);
    expect(spoolOf(home)).toEqual([]);
  });

  it("garbage on stdin, or no configuration: exit 0, nothing printed", async () => {
    for (const [stdin, extra] of [["}{", {}], [input("x", "PreCompact"), { BATON_URL: "", BATON_TOKEN: "" }]] as const) {
      const result = await runBaton(["hook", "pre-compact"], { cwd: repo, env: env("home-garbage", extra), input: stdin });
      expect([result.code, result.stdout, result.stderr]).toEqual([0, "", ""]);
    }
  });
});

describe("a request the server refuses for good (a token limited to another project)", () => {
  let other: string;
  const limited = () => ({ BATON_TOKEN: world.tokens.anaOther! });
  const inOther = (sessionId: string, event: string) => JSON.stringify({ session_id: sessionId, transcript_path: transcriptPath, cwd: other, hook_event_name: event });
  beforeAll(() => {
    other = makeRepo(path.join(tmp.dir, "src", "other"), { remote: "https://github.com/acme/other.git", commits: ["Other"] });
  });

  it("a refused checkpoint is dropped (logged), and the next one, in a project the token may write, is sent", async () => {
    const home = "home-refused";
    // The project named (as .baton.json or BATON_PROJECT do) is one the token may not write.
    const refused = await runBaton(["hook", "pre-compact"], { cwd: repo, env: env(home, { ...limited(), BATON_PROJECT: "web" }), input: input("refused-1", "PreCompact") });
    expect([refused.code, refused.stdout]).toEqual([0, ""]);
    expect(hookLogOf(home)).toMatch(/pre-compact: the handoff of session refused-1 refused \(403\)/);
    expect(spoolOf(home)).toEqual([]);

    const sent = await runBaton(["hook", "pre-compact"], { cwd: other, env: env(home, limited()), input: inOther("refused-2", "PreCompact") });
    expect(sent.code).toBe(0);
    expect(hookLogOf(home)).toMatch(/pre-compact: checkpoint sent 1, spooled 0/);
    expect(await handoffsOf("refused-2", "other")).toHaveLength(1);
  });

  it("a spooled request refused with 403 is dropped and the flush goes on to the next", async () => {
    const home = "home-refused-spool";
    const dir = path.join(tmp.dir, home, ".cache", "baton", "spool");
    mkdirSync(dir, { recursive: true });
    const handoff = (sessionId: string, cwd: string, project: string) => ({
      method: "POST",
      path: "/api/handoffs",
      body: { markdown: `Spooled ${sessionId}.`, sessionId, project, cwd },
      what: `the handoff of session ${sessionId}`,
      createdAt: new Date().toISOString(),
    });
    writeFileSync(path.join(dir, "00000000000001-000000-1-aaaaaaaa.json"), JSON.stringify(handoff("spooled-web", repo, "web")));
    writeFileSync(path.join(dir, "00000000000002-000000-1-bbbbbbbb.json"), JSON.stringify(handoff("spooled-other", other, "other")));
    const result = await runBaton(["hook", "session-start"], { cwd: other, env: env(home, { ...limited(), BATON_TIMEOUT_MS: "8000" }), input: inOther("after", "SessionStart") });
    expect(result.code).toBe(0);
    expect(spoolOf(home)).toEqual([]);
    expect(hookLogOf(home)).toMatch(/spool: dropped the handoff of session spooled-web .*403/);
    expect(await handoffsOf("spooled-other", "other")).toHaveLength(1);
  });
});
