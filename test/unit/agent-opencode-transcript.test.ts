import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { HookFacts } from "@/cli/src/agents/agent";
import { opencodeTranscript, parseOpencodeSession } from "@/cli/src/agents/opencode/transcript";
import type { ToolCall } from "@/cli/src/agents/session";

// Recorded from the real opencode 1.18.33 (test/integration/agent-opencode.test.ts and a run by hand):
// session.jsonl as Baton's plugin writes a session for the stop hook, export.json as `opencode export <id>`
// prints one. Machine paths replaced by /home/ana/src/web.
const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/agents/opencode");
const fixture = (name: string) => path.join(FIXTURES, name);
const tmp = mkdtempSync(path.join(tmpdir(), "baton-opencode-transcript-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const facts = (transcriptPath: string | null): HookFacts => ({ sessionId: "ses_fallback", cwd: "/elsewhere", transcriptPath, source: null, prompt: null, lastAssistantMessage: null, model: null });
const read = (file: string | null, maxBytes = 1 << 20) => {
  const errors: string[] = [];
  return { session: opencodeTranscript.read(facts(file), { maxBytes, onError: (m) => errors.push(m) }), errors };
};
const tools = (events: { kind: string }[]) => events.filter((e): e is ToolCall => e.kind === "tool");

describe("opencodeTranscript on the plugin's session file", () => {
  it("reads the user's ask without the prompt stage's context, the written file, the failing then passing command, the model", () => {
    const { session, errors } = read(fixture("session.jsonl"));
    expect(errors).toEqual([]);
    expect(session!.agent).toBe("opencode");
    expect(session!.sessionId).toMatch(/^ses_/);
    expect(session!.cwd).toBe("/home/ana/src/web");
    expect(session!.model).toBe("double-1");
    const users = session!.events.filter((e) => e.kind === "user").map((e) => (e as { text: string }).text);
    expect(users).toEqual(["How do the flamingo signing keys rotate? Write notes.md about it. Always run the linter before committing."]);
    expect(users[0]).not.toContain("flamingo signing keys rotate through the vault");
    const [write, failing, passing] = tools(session!.events);
    expect(write!.name).toBe("write");
    expect(write!.files).toEqual([{ path: "/home/ana/src/web/notes.md", how: "written" }]);
    expect(write!.failed).toBe(false);
    expect([failing!.command, failing!.failed]).toEqual(["test -s notes.txt", true]);
    expect([passing!.command, passing!.failed]).toEqual(["test -s notes.md", false]);
    expect(session!.events.at(-1)).toMatchObject({ kind: "assistant", text: expect.stringContaining("Tuesday") });
    expect(session!.firstAt! <= session!.lastAt!).toBe(true);
    expect(write!.at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("of a huge file reads the end alone, and a cut or broken line is skipped, never fatal", () => {
    const text = readFileSync(fixture("session.jsonl"), "utf8");
    const file = path.join(tmp, "cut.jsonl");
    writeFileSync(file, `not json\n${text}`);
    const lastLine = text.trimEnd().split("\n").at(-1)!;
    const { session } = read(file, lastLine.length + 10);
    expect(session!.events.map((e) => e.kind)).toEqual(["assistant"]);
    // The session's own line was cut away: its id comes from the hook's facts, its directory from the assistant's message.
    expect([session!.sessionId, session!.cwd]).toEqual(["ses_fallback", "/home/ana/src/web"]);
  });

  it("gives null for a missing file or none named, and says nothing of a missing one", () => {
    expect(read(path.join(tmp, "none.jsonl"))).toEqual({ session: null, errors: [] });
    expect(read(null).session).toBeNull();
  });
});

describe("parseOpencodeSession on opencode export's output", () => {
  it("reads the same shape: synthetic parts are not the user's words, a non-zero exit is a failure", () => {
    const session = parseOpencodeSession(readFileSync(fixture("export.json"), "utf8"));
    const users = session.events.filter((e) => e.kind === "user").map((e) => (e as { text: string }).text);
    // `opencode run "…"` quoted the words it was given: what was typed is without the quotes.
    expect(users).toEqual(["Write notes.md then check it"]);
    const calls = tools(session.events);
    expect(calls.map((c) => [c.name, c.command, c.failed])).toEqual([
      ["write", null, false],
      ["bash", "test -f missing.txt", true],
      ["bash", "test -f notes.md", false],
    ]);
    expect(calls[0]!.files).toEqual([{ path: "/home/ana/src/web/notes.md", how: "written" }]);
  });

  it("unquotes a message that is one argument of opencode run, and only such a message", () => {
    const asked = (text: string) => {
      const line = { info: { id: "msg_1", role: "user" }, parts: [{ type: "text", text }] };
      return (parseOpencodeSession(JSON.stringify(line)).events[0] as { text: string }).text;
    };
    expect(asked('"say \\"hi\\" now"')).toBe('say "hi" now');
    expect(asked('"a" and "b"')).toBe('"a" and "b"');
    expect(asked("plain")).toBe("plain");
  });

  it("takes patches' files, errors as failures, and skips compaction summaries", () => {
    const patchText = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: b.txt\n*** Move to: c.txt\n*** Delete File: d.txt\n*** End Patch";
    const lines = [
      { info: { id: "ses_1", directory: "/r" } },
      { info: { id: "msg_1", role: "assistant", modelID: "m" }, parts: [{ type: "tool", tool: "apply_patch", state: { status: "completed", input: { patchText }, output: "ok" } }] },
      { info: { id: "msg_2", role: "assistant" }, parts: [{ type: "tool", tool: "edit", state: { status: "error", input: { filePath: "/r/e.ts" }, error: "oldString not found" } }] },
      { info: { id: "msg_3", role: "assistant", summary: true }, parts: [{ type: "text", text: "What we did so far" }] },
    ];
    const session = parseOpencodeSession(lines.map((l) => JSON.stringify(l)).join("\n"));
    const [patch, edit] = tools(session.events);
    expect(patch!.files).toEqual([
      { path: "a.txt", how: "written" },
      { path: "b.txt", how: "edited" },
      { path: "c.txt", how: "written" },
      { path: "d.txt", how: "deleted" },
    ]);
    expect([edit!.failed, edit!.output, edit!.files]).toEqual([true, "oldString not found", []]);
    expect(session.events).toHaveLength(2);
  });
});
