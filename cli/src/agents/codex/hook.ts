import path from "node:path";
import { MAX_MODEL_CHARS, MAX_SESSION_ID_CHARS } from "../../../../lib/rules";
import type { HookAdapter, HookFacts } from "../agent";

/**
 * Codex CLI's hook stdin (0.169, as test/integration/agent-codex.test.ts records it): `session_id`,
 * `transcript_path` (its rollout file), `cwd`, `hook_event_name`, `model`; SessionStart adds `source`
 * (startup, resume, clear), UserPromptSubmit `turn_id` and `prompt`, Stop `last_assistant_message`,
 * SessionEnd `reason`, PreCompact `trigger`: Claude Code's snake_case names.
 */

/** Paths, prompts and messages longer than this are not ones Baton reads. */
const MAX_FIELD = 1024 * 1024;
const SOURCES = new Set(["startup", "resume", "clear", "compact"]);

const text = (value: unknown, max = MAX_FIELD): string | null => (typeof value === "string" && value.trim() && value.length <= max ? value.trim() : null);

function facts(input: Record<string, unknown>): HookFacts {
  const cwd = text(input.cwd);
  const source = text(input.source);
  return {
    sessionId: text(input.session_id, MAX_SESSION_ID_CHARS),
    cwd: cwd && path.isAbsolute(cwd) ? cwd : null,
    transcriptPath: text(input.transcript_path),
    source: source && SOURCES.has(source) ? source : null,
    prompt: text(input.prompt),
    lastAssistantMessage: text(input.last_assistant_message),
    model: text(input.model, MAX_MODEL_CHARS),
  };
}

/** Codex adds `additionalContext` to the turn as a developer message, for SessionStart and UserPromptSubmit alike. */
function output(event: "session-start" | "prompt", context: string): string {
  if (!context) return "";
  const hookEventName = event === "session-start" ? "SessionStart" : "UserPromptSubmit";
  return JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext: context } }) + "\n";
}

export const codexHook: HookAdapter = { name: "codex", facts, output };
