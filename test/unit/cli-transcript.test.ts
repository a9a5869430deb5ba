import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildHandoff } from "@/cli/src/transcript/build-handoff";
import { redactHandoffFacts, redactTranscript } from "@/cli/src/transcript/redact-transcript";
import { SecretRedactor } from "@/lib/secrets/redact-secrets";
import { findExplicit } from "@/cli/src/lessons/find-explicit";
import { linesOf } from "@/cli/src/lessons/session-lines";
import { emptySession } from "@/cli/src/agents/session";
import { parseClaudeTranscript as parseTranscript } from "@/cli/src/agents/claude/transcript";

const transcript = readFileSync(path.join(import.meta.dirname, "../fixtures/cli/transcript.jsonl"), "utf8");

describe("parseTranscript", () => {
  it("keeps what the user typed and what the assistant said and did; skips meta, commands, sidechains and tool results", () => {
    const t = parseTranscript(transcript);
    expect(t.sessionId).toBe("4f2d9c1e-7b3a-4e8f-9a61-0c5d2e8b7f30");
    expect(t.branch).toBe("feat/revoke");
    expect(t.events.filter((e) => e.kind === "user")).toHaveLength(3);
    expect(t.events.filter((e) => e.kind === "tool").map((e) => (e.kind === "tool" ? e.name : ""))).toEqual(["Read", "TodoWrite", "Edit", "Write", "MultiEdit", "Edit", "Bash"]);
    expect(JSON.stringify(t.events)).not.toContain("subagent");
    expect(JSON.stringify(t.events)).not.toContain("Caveat");
  });

  it("reads each tool call into the shape every agent shares: files changed, the command, its output and whether it failed", () => {
    const line = (type: string, content: unknown) => JSON.stringify({ type, timestamp: "2026-11-26T10:00:00.000Z", message: { model: "claude-x", content } });
    const t = parseTranscript(
      [
        line("user", "Fix the date test"),
        line("assistant", [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "npm test" } }]),
        line("user", [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "FAIL date.test.ts: expected UTC" }], is_error: true }]),
        line("assistant", [{ type: "tool_use", id: "t2", name: "Edit", input: { file_path: "/repo/src/date.ts", old_string: "a", new_string: "b" } }]),
        line("user", [{ type: "tool_result", tool_use_id: "t2", content: "ok" }]),
        line("assistant", [{ type: "tool_use", id: "t3", name: "Bash", input: { command: "TZ=UTC npm test" } }]),
        line("user", [{ type: "tool_result", tool_use_id: "t3", content: "1 passed" }]),
      ].join("\n"),
    );
    expect(t.model).toBe("claude-x");
    expect(t.events.filter((e) => e.kind === "user").map((e) => (e.kind === "user" ? e.text : ""))).toEqual(["Fix the date test"]);
    const tools = t.events.flatMap((e) => (e.kind === "tool" ? [{ command: e.command, files: e.files, output: e.output, failed: e.failed }] : []));
    expect(tools).toEqual([
      { command: "npm test", files: [], output: "FAIL date.test.ts: expected UTC", failed: true },
      { command: null, files: [{ path: "/repo/src/date.ts", how: "edited" }], output: "ok", failed: false },
      { command: "TZ=UTC npm test", files: [], output: "1 passed", failed: false },
    ]);
  });

  it("reads `!` bash mode as the Bash call it is, not as words the user typed (no proposal, no ask)", () => {
    const line = (content: unknown) => JSON.stringify({ type: "user", timestamp: "2026-11-26T10:00:00.000Z", message: { role: "user", content } });
    const t = parseTranscript(
      [
        line("<bash-input>cat docs/STYLE.md</bash-input>"),
        line("<bash-stdout># Style\nNever use semicolons in the legacy app.\nAlways run the linter with --fix before a pull request.</bash-stdout><bash-stderr></bash-stderr>"),
        line("<task-notification>Always restart the dev server after a schema change.</task-notification>"),
        line('<teammate-message teammate_id="ana">Never merge on Fridays.</teammate-message>'),
        line("Summarise the style doc for me"),
      ].join("\n"),
    );
    expect(t.events.filter((e) => e.kind === "user").map((e) => (e.kind === "user" ? e.text : ""))).toEqual(["Summarise the style doc for me"]);
    expect(t.events[0]).toMatchObject({ kind: "tool", name: "Bash", command: "cat docs/STYLE.md", output: "# Style\nNever use semicolons in the legacy app.\nAlways run the linter with --fix before a pull request." });
    expect(findExplicit(t, linesOf(t))).toEqual([]);
    expect(buildHandoff({ transcript: t, lastAssistantMessage: null, cwd: null, sessionId: "s1" })).not.toMatch(/bash-|semicolons|Fridays/);
  });

  it("skips a compaction's summary, marked or not: the conversation before it retold, not the user's words (no ask, no proposal)", () => {
    const summary =
      "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis: the user asked to always run migrations first.\n1. Primary Request: move the cron jobs to the queue";
    const line = (extra: object) => JSON.stringify({ type: "user", timestamp: "2026-11-26T10:00:00.000Z", message: { role: "user", content: summary }, ...extra });
    for (const marked of [{ isCompactSummary: true }, {}]) {
      const t = parseTranscript([line(marked), JSON.stringify({ type: "user", message: { role: "user", content: "now add a retry to the mailer job" } })].join("\n"));
      expect(t.events.filter((e) => e.kind === "user").map((e) => (e.kind === "user" ? e.text : ""))).toEqual(["now add a retry to the mailer job"]);
      expect(findExplicit(t, linesOf(t))).toEqual([]);
    }
  });

  it("skips lines that are not JSON or not messages", () => {
    const t = parseTranscript(`not json\n{"type":"user"}\n42\nnull\n{"type":"assistant","message":{"content":"plain"}}\n`);
    expect(t.events).toEqual([{ kind: "assistant", text: "plain", at: null }]);
  });
});

describe("buildHandoff", () => {
  it("says what was asked, what was done, files touched and open ends", () => {
    const markdown = buildHandoff({ transcript: parseTranscript(transcript), lastAssistantMessage: null, cwd: "/home/ana/src/web", sessionId: null });
    expect(markdown).toBe(
      [
        "Session 4f2d9c1e · 3 requests · 3 files changed (extracted from the transcript by baton)",
        "",
        "### Asked",
        "- Add a revoke button to the API token list in the dashboard. Always run the migrations before the tests, the test database is created empty.",
        "- remember that the staging database is read-only, never point the e2e tests at it. And please prefer server actions for dashboard mutations.",
        "- Does the list refresh after revoking?",
        "",
        "### Done",
        "The revoke button now calls DELETE /api/tokens/{id} and the list refreshes.",
        "Still failing: the e2e test for revoking the last token (it expects an empty state message).",
        "Next step: add the empty state to components/tokens/token-list.tsx.",
        "Commands run: `npm run db:migrate && npx vitest run test/integration/tokens.test.ts`",
        "",
        "### Files touched",
        "- components/tokens/token-list.tsx (edited)",
        "- app/api/tokens/[id]/route.ts (written)",
        "- lib/actions/token-actions.ts (edited)",
        "",
        "### Open ends",
        "- [ ] Add revoke button (in progress)",
        "- [ ] Wire DELETE /api/tokens/{id}",
        "- [ ] Empty state after the last token is revoked",
        "- Still failing: the e2e test for revoking the last token (it expects an empty state message).",
        "- Next step: add the empty state to components/tokens/token-list.tsx.",
        "",
      ].join("\n"),
    );
  });

  it("uses the Stop hook's last message, and has nothing to say about an empty session", () => {
    const empty = parseTranscript("");
    expect(buildHandoff({ transcript: empty, lastAssistantMessage: null, cwd: null, sessionId: "s" })).toBeNull();
    expect(buildHandoff({ transcript: empty, lastAssistantMessage: "All green.", cwd: null, sessionId: "s1" })).toBe("Session s1 · 0 requests (extracted from the transcript by baton)\n\n### Done\nAll green.\n");
  });

  it("the pre-compact hook's redaction of what a handoff shows gives the handoff the whole transcript's redaction gives", () => {
    // Should buildHandoff read another field of a tool call, redactHandoffFacts must redact it too.
    const secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
    const withSecrets = transcript.replaceAll("token-list.tsx", `token-list.tsx ${secret}`).replaceAll("revoke", `revoke (token ${secret})`);
    const handoffOf = (redact: typeof redactTranscript) =>
      buildHandoff({ transcript: redact(parseTranscript(withSecrets), new SecretRedactor()), lastAssistantMessage: null, cwd: "/home/ana/src/web", sessionId: "s" });
    const shown = handoffOf(redactHandoffFacts);
    expect(shown).toBe(handoffOf(redactTranscript));
    expect(shown).toContain("[withheld: ");
    expect(shown).not.toContain(secret);
  });

  it("keeps the first request and the latest ones when there are many", () => {
    const lines = Array.from({ length: 10 }, (_, i) => JSON.stringify({ type: "user", message: { role: "user", content: `request number ${i + 1}` } }));
    const markdown = buildHandoff({ transcript: parseTranscript(lines.join("\n")), lastAssistantMessage: null, cwd: null, sessionId: null })!;
    expect(markdown.match(/^- .*$/gm)).toEqual(["- request number 1", "- … 4 more requests", "- request number 6", "- request number 7", "- request number 8", "- request number 9", "- request number 10"]);
  });
});

describe("statements in so many words (findExplicit)", () => {
  it.each([
    ["Always use pnpm in this repository.", [{ kind: "pattern", content: "Always use pnpm in this repository.", confidence: 0.7 }]],
    ["never commit directly to main", [{ kind: "pattern", content: "Never commit directly to main.", confidence: 0.7 }]],
    ["Please prefer small pull requests", [{ kind: "pattern", content: "Prefer small pull requests.", confidence: 0.6 }]],
    ["Remember to bump the version before releasing.", [{ kind: "pattern", content: "Bump the version before releasing.", confidence: 0.65 }]],
    ["Remember that CI runs on Node 20 only.", [{ kind: "insight", content: "CI runs on Node 20 only.", confidence: 0.65 }]],
    ["From now on, write tests first.", [{ kind: "pattern", content: "Write tests first.", confidence: 0.7 }]],
    ["We always deploy on Tuesdays.", [{ kind: "pattern", content: "We always deploy on Tuesdays.", confidence: 0.6 }]],
    ["Should we always use pnpm?", []],
    ["```\nalways true\n```", []],
    ["It never works when I try it", []],
    ["always", []],
    ["Always use pnpm.\nok, always use pnpm.", [{ kind: "pattern", content: "Always use pnpm.", confidence: 0.8 }]],
    // In the languages teams write in besides English.
    ["Merk dir: wir verwenden immer pnpm statt npm.", [{ kind: "pattern", content: "Wir verwenden immer pnpm statt npm.", confidence: 0.65 }]],
    ["N'oublie pas : toujours utiliser pnpm, jamais npm.", [{ kind: "pattern", content: "Toujours utiliser pnpm, jamais npm.", confidence: 0.65 }]],
    ["Recuerda que las migraciones van antes del despliegue.", [{ kind: "pattern", content: "Las migraciones van antes del despliegue.", confidence: 0.65 }]],
    ["Запомни: всегда запускай миграции перед деплоем.", [{ kind: "pattern", content: "Всегда запускай миграции перед деплоем.", confidence: 0.65 }]],
    ["覚えておいて：デプロイは必ず火曜日に行うこと。", [{ kind: "pattern", content: "デプロイは必ず火曜日に行うこと。", confidence: 0.65 }]],
    ["记住：每次发布之前都要先运行数据库迁移", [{ kind: "pattern", content: "每次发布之前都要先运行数据库迁移.", confidence: 0.65 }]],
    ["Ab jetzt: neue Plugins kommen nach plugins/.", [{ kind: "pattern", content: "Neue Plugins kommen nach plugins/.", confidence: 0.7 }]],
    ["Niemals direkt auf main pushen.", [{ kind: "pattern", content: "Niemals direkt auf main pushen.", confidence: 0.7 }]],
    ["Immer noch kaputt nach dem Update", []],
    ["Toujours pas de réponse du serveur", []],
  ])("%j", (text, expected) => {
    const session = { ...emptySession("claude"), events: [{ kind: "user" as const, text, at: null }] };
    expect(findExplicit(session, linesOf(session)).map(({ kind, content, confidence }) => ({ kind, content, confidence }))).toEqual(expected);
  });
});
