/**
 * A coding session as every agent's transcript reader yields it (cli/src/agents/<agent>/transcript.ts),
 * whatever the agent wrote on disk: what the user typed, what the assistant said, and each tool call with
 * what it did (files changed, a command run, the todo list) and how it ended. The handoff builder and the
 * lesson extractor read this shape only, never an agent's own format.
 */
import type { AgentName } from "../../../lib/rules";

/** How a tool call changed a file. */
export type FileChange = { path: string; how: "edited" | "written" | "deleted" };

export type TodoItem = { content: string; status: string };

export type ToolCall = {
  kind: "tool";
  /** The agent's own name for the tool (Edit, apply_patch, run_shell_command, bash …). */
  name: string;
  /** Its arguments as the agent recorded them (redacted with everything else before use). */
  input: Record<string, unknown>;
  /** Files the call changed, as the agent named them (absolute, or relative to the session's cwd). */
  files: FileChange[];
  /** The shell command it ran, when it ran one. */
  command: string | null;
  /** The whole todo list, when the call set it (the last one wins). */
  todos: TodoItem[] | null;
  /** What the call answered (cut to a few KB), when the transcript keeps it. */
  output: string | null;
  /** True when it failed (an error, a non-zero exit), false when it succeeded, null when unknown. */
  failed: boolean | null;
  at: string | null;
};

export type SessionEvent = { kind: "user"; text: string; at: string | null } | { kind: "assistant"; text: string; at: string | null } | ToolCall;

export type Session = {
  agent: AgentName;
  events: SessionEvent[];
  sessionId: string | null;
  cwd: string | null;
  branch: string | null;
  /** The model the session ran on, when the transcript says. */
  model: string | null;
  firstAt: string | null;
  lastAt: string | null;
};

export const emptySession = (agent: AgentName): Session => ({ agent, events: [], sessionId: null, cwd: null, branch: null, model: null, firstAt: null, lastAt: null });

/** The most of a tool's output a session keeps per call: enough for an error and its cause. */
export const MAX_TOOL_OUTPUT = 4000;

/** A tool call with nothing known beyond its name and input; readers fill in what their format says. */
export function toolCall(name: string, input: Record<string, unknown>, at: string | null, known: Partial<Omit<ToolCall, "kind" | "name" | "input" | "at">> = {}): ToolCall {
  const output = known.output == null ? null : cutAtSpace(known.output, MAX_TOOL_OUTPUT);
  return { kind: "tool", name, input, files: known.files ?? [], command: known.command ?? null, todos: known.todos ?? null, output, failed: known.failed ?? null, at };
}

/**
 * `text` cut to at most `max` characters at a whitespace: secrets are redacted after reading, and half a
 * token no longer has the shape the redactor knows. The "…" stands apart, so the last word keeps its
 * shape too (`DB_PASSWORD=S3cret…` would read as an elided value, not a secret).
 */
function cutAtSpace(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  while (end > 0 && !/\s/.test(text[end]!)) end--;
  return end > 0 ? `${text.slice(0, end)} …` : "…";
}
