import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { geminiHook } from "@/cli/src/agents/gemini/hook";
import { findGeminiTranscript, geminiTranscript, parseGeminiTranscript } from "@/cli/src/agents/gemini/transcript";
import type { SessionEvent, ToolCall } from "@/cli/src/agents/session";
import { buildHandoff } from "@/cli/src/transcript/build-handoff";

// Recorded from the real Gemini CLI 0.61 (gemini -p against the local model double, then gemini -r latest -p),
// with hooks that answered START-MARKER at SessionStart and PROMPT-MARKER at BeforeAgent.
const FIXTURES = path.join(import.meta.dirname, "../fixtures/agents/gemini");
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), "utf8");
const resumed = fixture("session-resumed.jsonl");
// Recorded by test/integration/agent-gemini.test.ts (RECORD_GEMINI_TRANSCRIPT): Baton's own hooks, Baton's real context.
const e2e = fixture("session-e2e.jsonl");

const tools = (events: SessionEvent[]) => events.filter((e): e is ToolCall => e.kind === "tool");
const asks = (events: SessionEvent[]) => events.filter((e) => e.kind === "user").map((e) => (e.kind === "user" ? e.text : ""));

const tmp = mkdtempSync(path.join(tmpdir(), "baton-gemini-transcript-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the Gemini CLI transcript reader", () => {
  it("keeps the user's asks without Gemini's session preamble or the hooks' <hook_context>, across a resumed session", () => {
    const session = parseGeminiTranscript(resumed);
    expect(asks(session.events)).toEqual(["Write src/notes.txt and check it. Prefer small files over big ones.", "What do the notes say?"]);
    expect(JSON.stringify(session.events.filter((e) => e.kind !== "tool"))).not.toMatch(/MARKER|session_context|hook_context/);
    expect(session).toMatchObject({ agent: "gemini", sessionId: "14e794f0-ba90-40e7-b1fd-ef2d55f86b89", model: "gemini-2.5-flash" });
    expect(session.firstAt).toBe("2026-11-26T13:46:08.022Z");
    expect(session.lastAt).toBe("2026-11-26T13:46:24.503Z");
  });

  it("reads each tool call once, with the file it wrote or edited, the command, its output and whether it failed", () => {
    const calls = tools(parseGeminiTranscript(resumed).events);
    expect(calls.map((c) => [c.name, c.files, c.command, c.failed])).toEqual([
      ["write_file", [{ path: "/home/ana/src/web/src/notes.txt", how: "written" }], null, false],
      ["replace", [{ path: "/home/ana/src/web/src/notes.txt", how: "edited" }], null, false],
      ["run_shell_command", [], "grep -q planet src/notes.txt", true],
      ["run_shell_command", [], "grep -q world src/notes.txt && echo found", false],
      ["write_todos", [], null, false],
    ]);
    expect(calls[2]!.output).toBe("Output: (empty)\nExit Code: 1\nProcess Group PGID: 13692");
    expect(calls[3]!.output).toContain("Output: found");
    expect(calls[4]!.todos).toEqual([
      { content: "Write the notes", status: "completed" },
      { content: "Add a README", status: "pending" },
    ]);
    expect(calls[0]!.at).toBe("2026-11-26T13:46:08.926Z");
  });

  it("keeps the assistant's words, in order with the asks", () => {
    const kinds = parseGeminiTranscript(resumed).events.map((e) => (e.kind === "tool" ? e.name : `${e.kind}: ${e.text}`));
    expect(kinds).toEqual([
      "user: Write src/notes.txt and check it. Prefer small files over big ones.",
      "write_file",
      "replace",
      "run_shell_command",
      "run_shell_command",
      "write_todos",
      "assistant: Wrote src/notes.txt and checked it. Still to do: a README.",
      "user: What do the notes say?",
      "assistant: The notes greet the world.",
    ]);
  });

  it("reads the bare functionCall parts of a file whose start was cut off, answers paired by call id", () => {
    // Only the lines from the resume on: Gemini CLI's own rewrite of the list (calls without results, first prompt dropped).
    const lines = resumed.split("\n");
    const tail = lines.slice(lines.findIndex((l, i) => i > 0 && l.includes('"projectHash"'))).join("\n");
    const session = parseGeminiTranscript(`{"cut": "off\n${tail}`);
    expect(tools(session.events).map((c) => [c.name, c.command, c.failed])).toEqual([
      ["write_file", null, false],
      ["replace", null, false],
      ["run_shell_command", "grep -q planet src/notes.txt", true],
      ["run_shell_command", "grep -q world src/notes.txt && echo found", false],
      ["write_todos", null, false],
    ]);
    expect(asks(session.events)).toEqual(["What do the notes say?"]);
  });

  it("drops what a $rewindTo took back, and skips lines that are not records", () => {
    const at = "2026-11-26T10:00:00.000Z";
    const jsonl = [
      "not json",
      "42",
      JSON.stringify({ id: "u1", timestamp: at, type: "user", content: [{ text: "First ask" }] }),
      JSON.stringify({ id: "g1", timestamp: at, type: "gemini", content: "First answer" }),
      JSON.stringify({ id: "u2", timestamp: at, type: "user", content: [{ text: "Second ask, taken back" }] }),
      JSON.stringify({ id: "i1", timestamp: at, type: "info", content: "Not a message of the conversation" }),
      JSON.stringify({ $rewindTo: "u2" }),
      JSON.stringify({ id: "u3", timestamp: at, type: "user", content: "/help" }),
      JSON.stringify({ id: "u4", timestamp: at, type: "user", content: [{ text: "Third ask" }] }),
      JSON.stringify({ id: "g2", timestamp: at, type: "gemini", content: [{ text: "Third answer" }], toolCalls: [{ name: "run_shell_command", args: { command: "npm test" }, status: "cancelled" }, { nope: 1 }] }),
    ].join("\n");
    const session = parseGeminiTranscript(jsonl);
    expect(session.events.map((e) => (e.kind === "tool" ? `${e.name} ${e.command} ${e.failed}` : `${e.kind}: ${e.text}`))).toEqual([
      "user: First ask",
      "assistant: First answer",
      "user: Third ask",
      "assistant: Third answer",
      "run_shell_command npm test true",
    ]);
  });

  it("finds the file from the hook's transcript_path, or from the session id in Gemini's folders, and the project root beside it", () => {
    const chats = path.join(tmp, "home/.gemini/tmp/web/chats");
    mkdirSync(chats, { recursive: true });
    writeFileSync(path.join(tmp, "home/.gemini/tmp/web/.project_root"), "/home/ana/src/web");
    const file = path.join(chats, "session-2026-11-26T13-46-14e794f0.jsonl");
    writeFileSync(file, resumed);
    expect(findGeminiTranscript("14e794f0-ba90-40e7-b1fd-ef2d55f86b89", path.join(tmp, "home"))).toBe(file);
    expect(findGeminiTranscript("00000000-0000", path.join(tmp, "home"))).toBeNull();
    // A dangling link in another project's chats (a file removed, a synced folder) does not hide it.
    const other = path.join(tmp, "home/.gemini/tmp/api/chats");
    mkdirSync(other, { recursive: true });
    symlinkSync(path.join(tmp, "gone.jsonl"), path.join(other, "session-2026-11-27T09-00-14e794f0.jsonl"));
    expect(findGeminiTranscript("14e794f0-ba90-40e7-b1fd-ef2d55f86b89", path.join(tmp, "home"))).toBe(file);

    const errors: string[] = [];
    const facts = { ...geminiHook.facts(JSON.parse(fixture("hook-after-agent.json")) as Record<string, unknown>), transcriptPath: file, cwd: null };
    const session = geminiTranscript.read(facts, { maxBytes: 1 << 20, onError: (m) => errors.push(m) });
    expect(session?.cwd).toBe("/home/ana/src/web");
    expect(asks(session!.events)).toHaveLength(2);
    // The last 3 KB: the start is cut, what is left still reads.
    const tail = geminiTranscript.read(facts, { maxBytes: 3000, onError: (m) => errors.push(m) });
    expect(tail?.events.at(-1)).toMatchObject({ kind: "assistant", text: "The notes greet the world." });
    expect(geminiTranscript.read({ ...facts, transcriptPath: path.join(tmp, "none.jsonl") }, { maxBytes: 1000, onError: (m) => errors.push(m) })).toBeNull();
    expect(errors).toEqual([]);
  });
});

describe("an interactive session (gemini in a terminal, two prompts, then /quit)", () => {
  it("skips the SessionStart context, which Gemini CLI records as a turn of its own there, and the prompt hook's part", () => {
    const session = parseGeminiTranscript(fixture("session-interactive.jsonl"));
    expect(session.events.map((e) => (e.kind === "tool" ? e.name : `${e.kind}: ${e.text}`))).toEqual([
      "user: Say hello",
      "assistant: Interactive answer.",
      "user: Second question",
      "assistant: Interactive answer.",
    ]);
  });
});

describe("a session of the e2e test, read and made a handoff", () => {
  it("the written file, the command that failed then passed, and the ask without Baton's context", () => {
    const session = parseGeminiTranscript(e2e);
    expect(asks(session.events)).toEqual(["How do the flamingo signing keys rotate? Write it down in notes.txt. Always run the linter before committing."]);
    expect(tools(session.events).map((c) => [c.name, c.files.map((f) => `${f.path} ${f.how}`), c.command, c.failed])).toEqual([
      ["write_file", ["/tmp/baton-agent-gemini/src/web/notes.txt written"], null, false],
      ["run_shell_command", [], "test -f build.ok || { touch build.ok; exit 3; }", true],
      ["run_shell_command", [], "test -f build.ok || { touch build.ok; exit 3; }", false],
    ]);
    const markdown = buildHandoff({ transcript: session, lastAssistantMessage: null, cwd: "/tmp/baton-agent-gemini/src/web", sessionId: null });
    expect(markdown).toContain("- notes.txt (written)");
    expect(markdown).toContain("Wrote notes.txt; the build check passes now.");
    expect(markdown).not.toMatch(/Last handoff|Learnings relevant/);
  });
});

describe("the Gemini CLI hook adapter", () => {
  it("reads Gemini's hook stdin; the prompt without the SessionStart context Gemini put in front of it", () => {
    const start = geminiHook.facts(JSON.parse(fixture("hook-session-start.json")) as Record<string, unknown>);
    expect(start).toEqual({
      sessionId: "14e794f0-ba90-40e7-b1fd-ef2d55f86b89",
      cwd: "/home/ana/src/web",
      transcriptPath: "/home/ana/.gemini/tmp/web/chats/session-2026-11-26T13-46-14e794f0.jsonl",
      source: "resume",
      prompt: null,
      lastAssistantMessage: null,
      model: null,
    });
    expect(geminiHook.facts(JSON.parse(fixture("hook-before-agent.json")) as Record<string, unknown>).prompt).toBe("What do the notes say?");
    const stop = geminiHook.facts(JSON.parse(fixture("hook-after-agent.json")) as Record<string, unknown>);
    expect(stop.prompt).toBe("Write src/notes.txt and check it. Prefer small files over big ones.");
    expect(stop.lastAssistantMessage).toBe("Wrote src/notes.txt and checked it. Still to do: a README.");
  });

  it("answers with hookSpecificOutput.additionalContext under Gemini's event names, nothing when there is no context", () => {
    expect(JSON.parse(geminiHook.output("session-start", "ctx"))).toEqual({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "ctx" } });
    expect(JSON.parse(geminiHook.output("prompt", "ctx"))).toEqual({ hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: "ctx" } });
    expect(geminiHook.output("prompt", "")).toBe("");
  });
});
