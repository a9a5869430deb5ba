import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { codexTranscript, parseCodexRollout, patchFiles } from "../../cli/src/agents/codex/transcript";
import type { HookFacts } from "../../cli/src/agents/agent";
import type { ToolCall } from "../../cli/src/agents/session";
import { tempDir } from "../support/server";

// Codex CLI's rollout files, recorded from real `codex exec` runs against the Responses API double
// (test/integration/agent-codex.test.ts, BATON_RECORD_FIXTURES=1): Baton's context as developer
// messages, a patch adding notes.txt, `test -f missing.txt` (exit 1), `test -f notes.txt && echo notes
// there` (exit 0), a last text.
const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/agents/codex");
const recorded = (name: string) => readFileSync(path.join(FIXTURES, name), "utf8");
const facts = (transcriptPath: string | null): HookFacts => ({ sessionId: "s-1", cwd: "/w", transcriptPath, source: null, prompt: null, lastAssistantMessage: null, model: null });
const tmp = tempDir("baton-codex-transcript-");
afterAll(() => tmp.remove());

describe("the Codex transcript reader", () => {
  const session = parseCodexRollout(recorded("rollout-exec.jsonl"));
  const tools = session.events.filter((e): e is ToolCall => e.kind === "tool");

  it("reads the user's ask without the context Codex or a hook injected, and the assistant's last text", () => {
    expect(session.events.filter((e) => e.kind === "user").map((e) => (e as { text: string }).text)).toEqual([
      "How do the flamingo signing keys rotate? Write it down in notes.txt. Always run the linter before committing.",
    ]);
    expect(session.events.filter((e) => e.kind === "assistant").map((e) => (e as { text: string }).text)).toEqual(["The notes are in notes.txt."]);
    expect(recorded("rollout-exec.jsonl")).toContain("## Last handoff");
    for (const injected of ["<environment_context>", "## Last handoff", "## Learnings relevant to this prompt"]) expect(JSON.stringify(session.events)).not.toContain(injected);
  });

  it("names the patched file, and each command with whether it failed", () => {
    expect(tools.map((t) => [t.name, t.files, t.command, t.failed])).toEqual([
      ["apply_patch", [{ path: "notes.txt", how: "written" }], null, false],
      ["exec_command", [], "test -f missing.txt", true],
      ["exec_command", [], "test -f notes.txt && echo notes there", false],
    ]);
    expect(tools[2]!.output).toBe("notes there\n");
    expect(tools.every((t) => t.at && t.at >= session.firstAt!)).toBe(true);
  });

  it("says the session, its directory, branch and model", () => {
    expect(session).toMatchObject({ agent: "codex", cwd: "/home/ana/src/web", branch: "main", model: "gpt-5.5" });
    expect(session.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(session.firstAt! < session.lastAt!).toBe(true);
  });

  it("skips lines that are not JSON or not Codex's, and never throws", () => {
    const noisy = ["not json", "{}", '{"type":"response_item","payload":null}', '{"type":"response_item","payload":{"type":"function_call_output","call_id":"nope","output":"x"}}', recorded("rollout-exec.jsonl")].join("\n");
    expect(parseCodexRollout(noisy).events).toEqual(session.events);
  });

  it("reads only the end of a big file, and nothing from a missing one", () => {
    const file = path.join(tmp.dir, "big.jsonl");
    const filler = JSON.stringify({ type: "event_msg", payload: { type: "user_message", message: "old ask" } }) + "\n";
    writeFileSync(file, filler.repeat(5000) + recorded("rollout-exec.jsonl"));
    const errors: string[] = [];
    const tail = codexTranscript.read(facts(file), { maxBytes: Buffer.byteLength(recorded("rollout-exec.jsonl")) + 10, onError: (m) => errors.push(m) });
    expect(tail!.events.filter((e) => e.kind === "user")).toHaveLength(1);
    expect(codexTranscript.read(facts(path.join(tmp.dir, "missing.jsonl")), { maxBytes: 1000, onError: (m) => errors.push(m) })).toBeNull();
    expect(codexTranscript.read(facts(null), { maxBytes: 1000, onError: (m) => errors.push(m) })).toBeNull();
    expect(errors).toEqual([]);
  });
});

describe("patchFiles", () => {
  it("names every file a patch adds, updates, deletes or moves", () => {
    const patch = ["*** Begin Patch", "*** Add File: a.txt", "+x", "*** Update File: src/b.ts", "@@", "-y", "+z", "*** Delete File: c.md", "*** Update File: d.ts", "*** Move to: e.ts", "*** End Patch"].join("\n");
    expect(patchFiles(patch)).toEqual([
      { path: "a.txt", how: "written" },
      { path: "src/b.ts", how: "edited" },
      { path: "c.md", how: "deleted" },
      { path: "d.ts", how: "deleted" },
      { path: "e.ts", how: "written" },
    ]);
  });

  it("finds a patch sent through the shell (apply_patch <<'EOF'), and older shell calls' commands and exit codes", () => {
    const lines = [
      { type: "response_item", payload: { type: "function_call", name: "shell", call_id: "c1", arguments: JSON.stringify({ command: ["bash", "-lc", "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: x.ts\n@@\n-a\n+b\n*** End Patch\nEOF"] }) } },
      { type: "response_item", payload: { type: "function_call_output", call_id: "c1", output: JSON.stringify({ output: "Done", metadata: { exit_code: 0 } }) } },
      { type: "response_item", payload: { type: "function_call", name: "shell", call_id: "c2", arguments: JSON.stringify({ command: ["npm", "test"] }) } },
      { type: "response_item", payload: { type: "function_call_output", call_id: "c2", output: JSON.stringify({ output: "1 failed", metadata: { exit_code: 1 } }) } },
    ];
    const tools = parseCodexRollout(lines.map((l) => JSON.stringify(l)).join("\n")).events as ToolCall[];
    expect(tools.map((t) => [t.files, t.command, t.failed])).toEqual([
      [[{ path: "x.ts", how: "edited" }], expect.stringContaining("apply_patch <<'EOF'"), false],
      [[], "npm test", true],
    ]);
  });
});
