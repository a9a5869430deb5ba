import type { TranscriptReader } from "../agent";
import { jsonLines, obj, readTail, str } from "../read-tail";
import { emptySession, toolCall, type FileChange, type Session, type TodoItem, type ToolCall } from "../session";

/**
 * Claude Code's transcript JSONL: one JSON object a line, `type` "user" or "assistant" with
 * `message.content` (a string, or blocks: text, tool_use {id, name, input}, tool_result {tool_use_id,
 * content, is_error}, thinking), plus bookkeeping lines (summary, file-history-snapshot, …) that are
 * skipped. The format is Claude Code's internal one: anything unexpected is skipped, never fatal.
 */

type Block = { type?: unknown; text?: unknown; id?: unknown; name?: unknown; input?: unknown; tool_use_id?: unknown; content?: unknown; is_error?: unknown };

/**
 * Text Claude Code puts in the user's turn that the user did not type: slash commands and their output,
 * reminders, `!` bash mode (`<bash-input>`, `<bash-stdout>`, `<bash-stderr>`), background tasks' and
 * teammates' messages, and a compaction's summary of the conversation before it (marked
 * `isCompactSummary` by the versions that mark it; its opening words in every version).
 */
const NOT_TYPED =
  /^\s*(<command-|<local-command-|<system-reminder>|<bash-(?:input|stdout|stderr)>|<task-notification>|<teammate-message|Caveat: |\[Request interrupted|This session is being continued from a previous conversation)/;
/** `!` bash mode: the command the user ran, then (in the next user line) what it printed. */
const BASH_INPUT = /^\s*<bash-input>([\s\S]*?)<\/bash-input>\s*$/;
const BASH_OUTPUT = /<bash-(stdout|stderr)>([\s\S]*?)<\/bash-\1>/g;

const EDIT_TOOLS: Record<string, FileChange["how"]> = { Edit: "edited", MultiEdit: "edited", Write: "written", NotebookEdit: "edited" };

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b: Block) => b && b.type === "text" && typeof b.text === "string")
    .map((b: Block) => b.text as string)
    .join("\n");
}

/** What a Claude Code tool call did, from its name and input. */
function claudeTool(name: string, input: Record<string, unknown>, at: string | null): ToolCall {
  const how = EDIT_TOOLS[name];
  const file = str(input.file_path) ?? str(input.notebook_path);
  const todos =
    name === "TodoWrite" && Array.isArray(input.todos)
      ? (input.todos as { content?: unknown; status?: unknown }[])
          .filter((t) => typeof t?.content === "string")
          .map((t): TodoItem => ({ content: t.content as string, status: String(t.status ?? "pending") }))
      : null;
  return toolCall(name, input, at, {
    files: how && file ? [{ path: file, how }] : [],
    command: name === "Bash" ? str(input.command) : null,
    todos,
  });
}

/**
 * A line of `!` bash mode, kept as the Bash call it is (so its output is a tool's output, redacted and
 * read as such, not words the user typed): the command starts a call, the output completes the last one.
 */
function bashMode(t: Session, text: string, at: string | null): boolean {
  const command = BASH_INPUT.exec(text)?.[1]?.trim();
  if (command) {
    t.events.push(claudeTool("Bash", { command }, at));
    return true;
  }
  const last = t.events.at(-1);
  if (!/^<bash-std(?:out|err)>/.test(text) || last?.kind !== "tool" || last.name !== "Bash" || last.output !== null) return false;
  const output = [...text.matchAll(BASH_OUTPUT)].map((m) => m[2]!.trim()).filter(Boolean).join("\n");
  if (output) Object.assign(last, toolCall(last.name, last.input, last.at, { ...last, output }));
  return true;
}

export function parseClaudeTranscript(jsonl: string): Session {
  const t = emptySession("claude");
  const calls = new Map<string, ToolCall>();
  for (const line of jsonLines(jsonl)) {
    if (line.type !== "user" && line.type !== "assistant") continue;
    if (line.isSidechain === true || line.isMeta === true || line.isCompactSummary === true) continue;
    t.sessionId ??= str(line.sessionId);
    t.cwd = str(line.cwd) ?? t.cwd;
    t.branch = str(line.gitBranch) ?? t.branch;
    const at = str(line.timestamp);
    if (at) {
      t.firstAt ??= at;
      t.lastAt = at;
    }
    const message = obj(line.message);
    t.model = str(message.model) ?? t.model;
    const content = message.content;
    if (line.type === "user") {
      // A tool's answer comes back in a user line: it completes the call, it is not something typed.
      if (Array.isArray(content)) {
        for (const block of content as Block[]) {
          if (block?.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
          const call = calls.get(block.tool_use_id);
          if (!call) continue;
          const output = textOf(block.content).trim();
          Object.assign(call, toolCall(call.name, call.input, call.at, { ...call, output: output || null, failed: block.is_error === true }));
        }
      }
      const text = textOf(content).trim();
      if (text && !bashMode(t, text, at) && !NOT_TYPED.test(text)) t.events.push({ kind: "user", text, at });
      continue;
    }
    if (!Array.isArray(content)) {
      const text = textOf(content).trim();
      if (text) t.events.push({ kind: "assistant", text, at });
      continue;
    }
    for (const block of content as Block[]) {
      if (block?.type === "text" && typeof block.text === "string" && block.text.trim()) {
        t.events.push({ kind: "assistant", text: block.text.trim(), at });
      } else if (block?.type === "tool_use" && typeof block.name === "string") {
        const call = claudeTool(block.name, obj(block.input), at);
        if (typeof block.id === "string") calls.set(block.id, call);
        t.events.push(call);
      }
    }
  }
  return t;
}

export const claudeTranscript: TranscriptReader = {
  read(facts, { maxBytes, onError }) {
    const text = readTail(facts.transcriptPath, maxBytes, onError);
    return text === null ? null : parseClaudeTranscript(text);
  },
};
