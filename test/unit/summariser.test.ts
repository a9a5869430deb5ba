import { describe, expect, it } from "vitest";
import { runSummariserCommand } from "../../cli/src/summarise/run-command";
import { askEndpoint } from "../../cli/src/summarise/ask-model";
import type { EndpointSpec } from "../../cli/src/summarise/summariser-config";
import { createServer } from "node:http";
import { emptySession, toolCall, type Session } from "../../cli/src/agents/session";
import { sessionText } from "../../cli/src/summarise/session-text";
import { parseSummariser } from "../../cli/src/summarise/summariser-config";
import { readSummaryAnswer } from "../../cli/src/summarise/summary-answer";
import { buildHandoff } from "../../cli/src/transcript/build-handoff";

// The summariser's pure parts: the setting, the session as the model reads it, the answer as it is read.

const answer = (value: unknown) => JSON.stringify(value);
const GOOD = { handoff: { asked: "Fix the flaky date test.", done: ["Set TZ=UTC in the test script."], open: [] }, lessons: [{ kind: "fact", lesson: "CI runs with TZ=UTC.", evidence: [2], confidence: 0.7 }] };

describe("the summariser setting (user configuration only)", () => {
  it("is off when absent, empty or false", () => {
    for (const value of [undefined, null, false, "", "  "]) expect(parseSummariser(value)).toEqual({ ok: true, spec: null });
  });

  it("an agent's name asks that agent, with the default time limit", () => {
    expect(parseSummariser("codex")).toEqual({ ok: true, spec: { use: "codex", timeoutMs: 90_000 } });
  });

  it("any other text is a command that prints the handoff (as before there were built-in summarisers)", () => {
    expect(parseSummariser("node ~/summarise.mjs")).toEqual({ ok: true, spec: { use: "command", command: "node ~/summarise.mjs" } });
  });

  it("an object names the agent or endpoint, a model and a time limit; JSON text (BATON_SUMMARISER) reads the same", () => {
    const endpoint = { use: "openai", url: "http://localhost:11434/v1/", model: "llama3.1", apiKeyEnv: "OLLAMA_KEY", timeoutMs: 30_000 };
    const expected = { ok: true, spec: { ...endpoint, url: "http://localhost:11434/v1" } };
    expect(parseSummariser(endpoint)).toEqual(expected);
    expect(parseSummariser(JSON.stringify(endpoint))).toEqual(expected);
    expect(parseSummariser({ use: "claude", model: "claude-haiku-4-5" })).toEqual({ ok: true, spec: { use: "claude", model: "claude-haiku-4-5", timeoutMs: 90_000 } });
  });

  it("says what is wrong with a setting it cannot use", () => {
    const problem = (value: unknown) => {
      const parsed = parseSummariser(value);
      return parsed.ok ? null : parsed.problem;
    };
    expect(problem({ use: "openai", url: "file:///etc/passwd", model: "x" })).toMatch(/^url:/);
    expect(problem({ use: "openai", url: "http://localhost:11434/v1" })).toMatch(/^model:/);
    expect(problem({ use: "claude", timeoutMs: 1 })).toMatch(/^timeoutMs:/);
    expect(problem({ use: "claude", apiKey: "sk-in-a-file" })).toMatch(/apiKey/);
    expect(problem({ use: "claude", model: "x; rm -rf ~" })).toMatch(/^model:/);
    expect(problem({ use: "amplifier" })).toMatch(/^use:/);
    expect(problem("{not json")).toMatch(/not valid JSON/);
  });
});

describe("the session as the model reads it", () => {
  const session: Session = {
    ...emptySession("codex"),
    events: [
      { kind: "user", text: "the date test fails only here", at: null },
      toolCall("shell", {}, null, { command: "npm test", output: "Expected 2026-01-01 got 2025-12-31\n" + "x".repeat(2000), failed: true }),
      { kind: "assistant", text: "CI runs with TZ=UTC; your machine does not.", at: null },
    ],
  };

  it("numbers each event by its turn, tool calls with their command, outcome and output cut", () => {
    const text = sessionText(session);
    expect(text.split("\n")[0]).toBe("[0] user: the date test fails only here");
    expect(text.split("\n")[1]).toMatch(/^\[1\] tool \$ npm test \(failed\): Expected 2026-01-01 got 2025-12-31 x+…$/);
    expect(text.split("\n")[1]!.length).toBeLessThan(460);
    expect(text.split("\n")[2]).toBe("[2] assistant: CI runs with TZ=UTC; your machine does not.");
  });

  it("over the budget, keeps the first requests and the latest events and says what it left out", () => {
    const long: Session = { ...emptySession("claude"), events: Array.from({ length: 200 }, (_, i) => ({ kind: i % 2 ? "assistant" : "user", text: `message ${i} ${"y".repeat(90)}`, at: null }) as const) };
    const text = sessionText(long, 4000);
    expect(text.length).toBeLessThanOrEqual(4100);
    expect(text).toMatch(/^\[0\] user: message 0 /);
    expect(text).toMatch(/\[199\] assistant: message 199 y+$/);
    expect(text).toMatch(/\[… \d+ lines of the session left out …\]/);
  });
});

describe("the model's answer", () => {
  it("reads the JSON object as it is, in a code fence, or inside prose", () => {
    for (const text of [answer(GOOD), "```json\n" + answer(GOOD) + "\n```", `Here is the summary:\n${answer(GOOD)}\nHope this helps.`]) {
      const read = readSummaryAnswer(text);
      expect(read.ok && read.answer.lessons).toEqual([{ kind: "fact", lesson: "CI runs with TZ=UTC.", evidence: [2], confidence: 0.7 }]);
    }
  });

  it("is no answer when it is not the shape asked for, or says nothing of the session", () => {
    expect(readSummaryAnswer("I could not summarise this session.")).toEqual({ ok: false, problem: "the answer holds no JSON object" });
    expect(readSummaryAnswer(answer({ lessons: [] })).ok).toBe(false);
    expect(readSummaryAnswer(answer({ handoff: { asked: "", done: [] } })).ok).toBe(false);
    expect(readSummaryAnswer(answer({ handoff: { asked: "x", done: "not a list" } })).ok).toBe(false);
  });

  it("leaves out a malformed lesson and keeps the rest", () => {
    const read = readSummaryAnswer(
      answer({ ...GOOD, lessons: [...GOOD.lessons, { kind: "explicit", lesson: "Not the model's to say.", evidence: [1] }, { kind: "fact", lesson: "No evidence at all.", evidence: [] }, { kind: "decision", lesson: "Use an outbox table, because the handler must not publish.", evidence: [0] }] }),
    );
    expect(read.ok && read.answer.lessons.map((l) => l.kind)).toEqual(["fact", "decision"]);
    expect(read.ok && read.answer.leftOut).toBe(2);
    // Unsaid confidence is middling.
    expect(read.ok && read.answer.lessons[1]!.confidence).toBe(0.6);
  });
});

describe("a handoff a model summarised", () => {
  it("has the model's Asked, Done and Open ends, and the transcript's files, commands and todos", () => {
    const session: Session = {
      ...emptySession("claude"),
      events: [
        { kind: "user", text: "fix the date test", at: null },
        toolCall("Edit", {}, null, { files: [{ path: "/w/package.json", how: "edited" }] }),
        toolCall("Bash", {}, null, { command: "TZ=UTC npm test", failed: false }),
        toolCall("TodoWrite", {}, null, { todos: [{ content: "Tell the team", status: "pending" }] }),
        { kind: "assistant", text: "Done; still need to tell the team.", at: null },
      ],
    };
    const markdown = buildHandoff({ transcript: session, lastAssistantMessage: null, cwd: "/w", sessionId: "abcdef123456", summary: { by: "Codex CLI", asked: "Fix the date test that failed locally.", done: ["Set TZ=UTC in the test script."], open: ["The team does not know yet."] } });
    expect(markdown).toBe(
      [
        "Session abcdef12 · 1 request · 1 file changed (summarised by Codex CLI from the transcript)",
        "",
        "### Asked",
        "Fix the date test that failed locally.",
        "",
        "### Done",
        "- Set TZ=UTC in the test script.",
        "Commands run: `TZ=UTC npm test`",
        "",
        "### Files touched",
        "- package.json (edited)",
        "",
        "### Open ends",
        "- [ ] Tell the team",
        "- The team does not know yet.",
        "",
      ].join("\n"),
    );
  });
});

describe("a summariser command", () => {
  it("runs with Baton's hooks off, as the built-in summarisers do, and is given the transcript", async () => {
    const run = await runSummariserCommand('printf "hooks %s, transcript %s\\n" "${BATON_HOOKS:-on}" "$BATON_TRANSCRIPT_PATH"', "/tmp/t.jsonl", process.cwd(), "s-1");
    expect(run).toEqual({ ok: true, markdown: "hooks off, transcript /tmp/t.jsonl\n" });
  });
});

describe("an endpoint's answer", () => {
  it("over 1 MB is no answer, and the rest is not read (the worker then sends the extractive result, as for any failure)", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = "x".repeat(64 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 64 && res.write(chunk)) sent++;
        if (sent < 64) res.once("drain", () => ((sent += 1), more()));
        else res.end();
      };
      more();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
      const asked = await askEndpoint({ use: "openai", url, model: "m", timeoutMs: 10_000 } satisfies EndpointSpec, "say", "session");
      expect(asked).toEqual({ ok: false, problem: `${url}'s answer is over 1 MB` });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
