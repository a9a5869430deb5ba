import path from "node:path";
import { MAX_MODEL_CHARS, MAX_SESSION_ID_CHARS, SESSION_SOURCES } from "../../../lib/rules";
import type { HookFacts } from "./agent";

// Shared by every agent's hook.ts: node built-ins only, no I/O.

/** The longest path a hook input may name, in characters. */
export const MAX_PATH = 4096;
/** The longest prompt or last message a hook reads (a pasted log can be megabytes). */
const MAX_TEXT = 1_000_000;
const SOURCES = new Set<string>(SESSION_SOURCES);

/** A non-empty string of at most `max` characters, trimmed; else null. */
export const stringField = (value: unknown, max: number): string | null =>
  typeof value === "string" && value.trim() && value.length <= max ? value.trim() : null;

/** An absolute path of at most MAX_PATH characters; else null. */
export const pathField = (value: unknown): string | null => {
  const p = stringField(value, MAX_PATH);
  return p && path.isAbsolute(p) ? p : null;
};

/** The facts from the fields each agent names its own way. */
export function hookFacts(raw: {
  sessionId?: unknown;
  cwd?: unknown;
  transcriptPath?: unknown;
  source?: unknown;
  prompt?: unknown;
  lastAssistantMessage?: unknown;
  model?: unknown;
}): HookFacts {
  const source = stringField(raw.source, 20);
  return {
    sessionId: stringField(raw.sessionId, MAX_SESSION_ID_CHARS),
    cwd: pathField(raw.cwd),
    transcriptPath: pathField(raw.transcriptPath),
    source: source && SOURCES.has(source) ? source : null,
    prompt: typeof raw.prompt === "string" && raw.prompt.length <= MAX_TEXT ? raw.prompt : null,
    lastAssistantMessage: stringField(raw.lastAssistantMessage, MAX_TEXT),
    model: stringField(raw.model, MAX_MODEL_CHARS),
  };
}

/** The facts from Claude Code's snake_case hook input, which Codex CLI sends too. */
export const snakeCaseFacts = (input: Record<string, unknown>): HookFacts =>
  hookFacts({
    sessionId: input.session_id,
    cwd: input.cwd,
    transcriptPath: input.transcript_path,
    source: input.source,
    prompt: input.prompt,
    lastAssistantMessage: input.last_assistant_message,
    model: input.model,
  });

/** Claude Code's answer shape, which Codex and Gemini CLI read too: `hookSpecificOutput.additionalContext`. */
export function hookSpecificOutput(hookEventName: string, context: string): string {
  return context ? JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext: context } }) + "\n" : "";
}
