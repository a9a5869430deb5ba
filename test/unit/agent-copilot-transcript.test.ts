import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { HookFacts } from "../../cli/src/agents/agent";
import { copilotHook } from "../../cli/src/agents/copilot/hook";
import { copilotTranscript, parseCopilotTranscript } from "../../cli/src/agents/copilot/transcript";
import type { ToolCall } from "../../cli/src/agents/session";
import { ROOT } from "../support/server";

// Recorded by test/integration/agent-copilot.test.ts: GitHub Copilot CLI 1.0.102 in `copilot -p` with
// Baton's hooks, the model double scripting a file written, a command failing, then one passing.
// Only the temp folder's path was replaced (by /home/ana).
const FIXTURE = path.join(ROOT, "test/fixtures/agents/copilot/events.jsonl");
const SESSION_ID = "0e47f006-6380-4c7a-8695-7d9c3343b96c";
const REPO = "/home/ana/src/web";
const PROMPT = "Write notes.md on how the flamingo signing keys rotate. Always run the linter before committing.";
const text = () => readFileSync(FIXTURE, "utf8");
const tools = (events: ReturnType<typeof parseCopilotTranscript>["events"]) => events.filter((e): e is ToolCall => e.kind === "tool");
const facts = (over: Partial<HookFacts>): HookFacts => ({ sessionId: null, cwd: null, transcriptPath: null, source: null, prompt: null, lastAssistantMessage: null, model: null, ...over });
const quiet = { maxBytes: 1 << 20, onError: () => {} };

describe("parseCopilotTranscript on a recorded session", () => {
  const session = parseCopilotTranscript(text());

  it("says where and on what the session ran", () => {
    expect(session).toMatchObject({ agent: "copilot", sessionId: SESSION_ID, cwd: REPO, branch: "main", model: "gpt-4.1" });
    expect(session.firstAt! < session.lastAt!).toBe(true);
  });

  it("keeps the user's ask as typed, without the context Baton's hook added to it", () => {
    const asks = session.events.filter((e) => e.kind === "user").map((e) => e.text);
    expect(asks).toEqual([PROMPT]);
    // The recording's model-facing message does carry the prompt hook's context: the reader left it out.
    expect(text()).toContain("<system_reminder>");
  });

  it("reads the assistant's words and each tool call: the file written, the command that failed, then the one that passed", () => {
    expect(session.events.filter((e) => e.kind === "assistant").map((e) => e.text)).toEqual(["Writing the notes.", "notes.md is written."]);
    const [create, failing, passing] = tools(session.events);
    expect(create).toMatchObject({ name: "create", files: [{ path: `${REPO}/notes.md`, how: "written" }], command: null, failed: false });
    expect(failing).toMatchObject({ name: "bash", command: "cat notes-draft.md", files: [], failed: true });
    expect(failing!.output).toContain("No such file or directory");
    expect(passing).toMatchObject({ name: "bash", command: "cat notes.md", failed: false });
    expect(tools(session.events)).toHaveLength(3);
  });
});

describe("parseCopilotTranscript on what else a log holds", () => {
  const line = (type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => JSON.stringify({ type, data, id: "x", timestamp: "2026-11-26T10:00:00.000Z", parentId: null, ...extra });

  it("skips what is not JSON, a line cut in half, and events it does not know, without throwing", () => {
    const session = parseCopilotTranscript(['e":"user.message","data":{"content":"cut"}}', "not json", "[1,2]", line("session.weird", {}), line("user.message", { content: "Fix the build" })].join("\n"));
    expect(session.events).toEqual([{ kind: "user", text: "Fix the build", at: "2026-11-26T10:00:00.000Z" }]);
  });

  it("leaves out a sub-agent's messages and calls, text the CLI put in the user's turn, and autopilot's continuations", () => {
    const session = parseCopilotTranscript(
      [
        line("assistant.message", { content: "sub-agent says", toolRequests: [] }, { agentId: "task-1" }),
        line("tool.execution_complete", { toolCallId: "c9", success: true, parentToolCallId: "c1" }),
        line("user.message", { content: "skill text", source: "skill-pdf" }),
        line("user.message", { content: "Continue", isAutopilotContinuation: true }),
        line("user.message", { content: "Ship it" }),
      ].join("\n"),
    );
    expect(session.events.map((e) => (e.kind === "tool" ? e.name : e.text))).toEqual(["Ship it"]);
  });

  it("reads the files of an edit, of a failed edit (from its arguments), and of every file a patch adds, updates, deletes or moves to (its arguments an object or the patch itself)", () => {
    const patch = ["*** Begin Patch", "*** Add File: a.ts", "+x", "*** Update File: b.ts", "*** Move to: c.ts", "@@", "-y", "+z", "*** Delete File: d.ts", "*** End Patch"].join("\n");
    const session = parseCopilotTranscript(
      [
        line("assistant.message", {
          content: "",
          toolRequests: [
            { toolCallId: "e1", name: "edit", arguments: { path: "/r/x.ts", old_str: "a", new_str: "b" } },
            { toolCallId: "e2", name: "edit", arguments: { path: "/r/missing.ts", old_str: "a", new_str: "b" } },
            { toolCallId: "p1", name: "apply_patch", arguments: { input: patch } },
            { toolCallId: "p2", name: "apply_patch", arguments: "*** Begin Patch\n*** Update File: e.ts\n*** End Patch" },
          ],
        }),
        line("tool.execution_complete", { toolCallId: "e1", success: true, result: { content: "ok" }, fileEdits: [{ path: "/r/x.ts", kind: "edit" }] }),
        line("tool.execution_complete", { toolCallId: "e2", success: false, error: { message: "File does not exist" } }),
      ].join("\n"),
    );
    const [edit, failed, applied, raw] = tools(session.events);
    expect(edit).toMatchObject({ files: [{ path: "/r/x.ts", how: "edited" }], failed: false, output: "ok" });
    expect(failed).toMatchObject({ files: [{ path: "/r/missing.ts", how: "edited" }], failed: true, output: "File does not exist" });
    expect(applied!.files).toEqual([
      { path: "a.ts", how: "written" },
      { path: "b.ts", how: "edited" },
      { path: "c.ts", how: "written" },
      { path: "d.ts", how: "deleted" },
    ]);
    expect(applied!.failed).toBeNull();
    expect(raw!.files).toEqual([{ path: "e.ts", how: "edited" }]);
  });
});

describe("copilotTranscript.read", () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(path.join(tmpdir(), "baton-copilot-transcript-"));
    vi.stubEnv("HOME", home);
    vi.stubEnv("COPILOT_HOME", "");
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    rmSync(home, { recursive: true, force: true });
  });

  it("finds the log from the session id alone (sessionEnd names no transcript), under ~/.copilot or COPILOT_HOME", () => {
    mkdirSync(path.join(home, ".copilot/session-state", SESSION_ID), { recursive: true });
    cpSync(FIXTURE, path.join(home, ".copilot/session-state", SESSION_ID, "events.jsonl"));
    expect(copilotTranscript.read(facts({ sessionId: SESSION_ID }), quiet)?.sessionId).toBe(SESSION_ID);
    vi.stubEnv("COPILOT_HOME", path.join(home, "elsewhere"));
    expect(copilotTranscript.read(facts({ sessionId: SESSION_ID }), quiet)).toBeNull();
  });

  it("reads a named transcript, of a huge one only its end, and nothing for a session id that would leave session-state", () => {
    const file = path.join(home, "events.jsonl");
    writeFileSync(file, "x".repeat(100_000) + "\n" + text());
    expect(copilotTranscript.read(facts({ transcriptPath: file }), { ...quiet, maxBytes: text().length + 1 })?.events.length).toBeGreaterThan(0);
    expect(copilotTranscript.read(facts({ sessionId: "../../etc" }), quiet)).toBeNull();
  });
});

describe("copilotHook", () => {
  it("reads Copilot's camelCase input, its sources in Baton's words", () => {
    expect(copilotHook.facts({ sessionId: SESSION_ID, timestamp: 1795700381005, cwd: REPO, source: "new", initialPrompt: "hi" })).toMatchObject({ sessionId: SESSION_ID, cwd: REPO, source: "startup", prompt: null });
    expect(copilotHook.facts({ sessionId: SESSION_ID, cwd: REPO, prompt: "Fix it" }).prompt).toBe("Fix it");
    expect(copilotHook.facts({ source: "resume" }).source).toBe("resume");
    expect(copilotHook.facts({ transcriptPath: "/home/ana/.copilot/session-state/x/events.jsonl", stopReason: "end_turn" }).transcriptPath).toBe("/home/ana/.copilot/session-state/x/events.jsonl");
  });

  it("answers with a top-level additionalContext, the one shape Copilot reads, and nothing without context", () => {
    expect(JSON.parse(copilotHook.output("session-start", "Last handoff"))).toEqual({ additionalContext: "Last handoff" });
    expect(JSON.parse(copilotHook.output("prompt", "A learning"))).toEqual({ additionalContext: "A learning" });
    expect(copilotHook.output("prompt", "")).toBe("");
  });
});
