import { homeFolder } from "../../config/home";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { HookFacts, TranscriptReader } from "../agent";
import { jsonLines, obj, readTail, str } from "../read-tail";
import { emptySession, toolCall, type FileChange, type Session, type TodoItem, type ToolCall } from "../session";

/**
 * Gemini CLI's session file (0.61), `~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`: a header
 * line `{sessionId, projectHash, startTime, …}`, then message records `{id, timestamp, type: "user" |
 * "gemini" | "info" | …, content}` — a record written again under the same id replaces the earlier one
 * (a model turn is written once bare, then again with its `toolCalls`, each holding its `args`, its
 * `result` (functionResponse parts) and its `status`) — and bookkeeping: `{"$set": {…}}` updates and
 * `{"$rewindTo": id}` (drops that message and all after it). Anything unexpected is skipped, never fatal.
 *
 * One departure from how Gemini CLI reads it back: `$set.messages` (written when a session is resumed)
 * replaces the list for Gemini CLI, but that list is rebuilt from the model's history, which has lost the
 * tool calls' results and statuses (a model turn's calls are bare `functionCall` parts there) and, in
 * `gemini -p`, the user's first prompt (Gemini CLI put its SessionStart `<hook_context>` in front of it,
 * and then drops text that starts so as not typed). So records already read are kept, and only new ones
 * are taken from such a list; bare functionCall parts are read too, for a file whose start was cut off.
 */

type MessageRecord = Record<string, unknown> & { id: string };

const EDIT_TOOLS: Record<string, FileChange["how"]> = { write_file: "written", replace: "edited" };
const SHELL_TOOL = "run_shell_command";
const TODO_TOOL = "write_todos";

/** Context Gemini CLI adds to a user's turn: its own session preamble and hooks' additional context. */
const INJECTED = /^(?:\s*<(session_context|hook_context)>[\s\S]*?<\/\1>)+/;
/** What Gemini CLI itself does not count as a user's words when it resumes a session: slash commands and `?` help. */
const NOT_AN_ASK = /^[/?]/;

/** The messages as they stand at the end of the file, in order. */
function currentMessages(jsonl: string): { header: Record<string, unknown>; messages: MessageRecord[] } {
  let header: Record<string, unknown> = {};
  const messages = new Map<string, MessageRecord>();
  const add = (record: unknown) => {
    const message = obj(record);
    if (typeof message.id === "string") messages.set(message.id, message as MessageRecord);
  };
  for (const line of jsonLines(jsonl)) {
    if (typeof line.$rewindTo === "string") {
      const ids = [...messages.keys()];
      const from = ids.indexOf(line.$rewindTo);
      if (from === -1) messages.clear();
      else for (const id of ids.slice(from)) messages.delete(id);
    } else if (typeof line.id === "string") {
      add(line);
    } else if (line.$set && typeof line.$set === "object") {
      const set = obj(line.$set);
      if (Array.isArray(set.messages)) for (const message of set.messages) if (!messages.has(String(obj(message).id))) add(message);
    } else if (typeof line.sessionId === "string") {
      header = line;
      if (Array.isArray(line.messages)) line.messages.forEach(add);
    }
  }
  return { header, messages: [...messages.values()] };
}

/** The text parts of a message's content (a string, or parts `{text}` / `{functionResponse}` / …). */
function texts(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.map((part) => str(obj(part).text)).filter((text): text is string => text !== null);
}

/** A part of a user's turn less the context Gemini CLI put in front of it (each part may start with some). */
const withoutInjected = (text: string): string => text.replace(INJECTED, "").trim();

/** What the user typed in a user record: its display text (without the prompt hook's part), less injected context. */
function typed(message: MessageRecord): string | null {
  const text = texts(message.displayContent ?? message.content)
    .map(withoutInjected)
    .filter(Boolean)
    .join("\n");
  return text && !NOT_AN_ASK.test(text) ? text : null;
}

/** A tool's answer as the model got it (functionResponse parts), without the `<untrusted_context>` wrapper Gemini CLI puts around shell output. */
function resultOf(parts: unknown[]): { output: string | null; error: boolean } {
  const outputs: string[] = [];
  let error = false;
  for (const part of parts) {
    const response = obj(obj(obj(part).functionResponse).response);
    const text = str(response.output) ?? str(response.error);
    if (str(response.error)) error = true;
    if (text) outputs.push(text.replace(/^\s*<untrusted_context>\n?([\s\S]*?)\n?<\/untrusted_context>\s*$/, "$1"));
  }
  return { output: outputs.length ? outputs.join("\n") : null, error };
}

/**
 * Whether a shell command failed, from the lines Gemini CLI's shell tool appends after the command's
 * output: `Exit Code: N` (only when N is not 0), `Signal: …`, then `Background PIDs: …` and
 * `Process Group PGID: …`. Read from the end so that the command's own output cannot pass for them.
 */
function shellFailed(output: string): boolean {
  if (/^Command was (automatically )?cancelled/.test(output)) return true;
  const lines = output.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const match = /^(Exit Code|Signal|Background PIDs|Process Group PGID): (.*)$/.exec(lines[i]!);
    if (!match) break;
    if (match[1] === "Exit Code" && match[2] !== "0") return true;
    if (match[1] === "Signal") return true;
  }
  return false;
}

/** A tool call from its name, arguments, answer (functionResponse parts, when known) and status ("success", "error", "cancelled"). */
function geminiTool(name: string, input: Record<string, unknown>, at: string | null, result: unknown[] | null, status: string | null): ToolCall {
  const how = EDIT_TOOLS[name];
  const file = str(input.file_path);
  const todos =
    name === TODO_TOOL && Array.isArray(input.todos)
      ? input.todos
          .map(obj)
          .filter((t) => typeof t.description === "string")
          .map((t): TodoItem => ({ content: t.description as string, status: String(t.status ?? "pending") }))
      : null;
  const { output, error } = resultOf(result ?? []);
  const failed =
    status === "error" || status === "cancelled" || error
      ? true
      : name === SHELL_TOOL && output !== null
        ? shellFailed(output)
        : status === "success" || (result !== null && output !== null)
          ? false
          : null;
  return toolCall(name, input, at, {
    files: how && file ? [{ path: file, how }] : [],
    command: name === SHELL_TOOL ? str(input.command) : null,
    todos,
    output,
    failed,
  });
}

export function parseGeminiTranscript(jsonl: string): Session {
  const t = emptySession("gemini");
  const { header, messages } = currentMessages(jsonl);
  t.sessionId = str(header.sessionId);
  /** Bare functionCall parts waiting for their answer, by call id. */
  const waiting = new Map<string, ToolCall>();
  for (const message of messages) {
    const at = str(message.timestamp);
    if (message.type !== "user" && message.type !== "gemini") continue;
    if (at) {
      t.firstAt ??= at;
      t.lastAt = at;
    }
    const parts = Array.isArray(message.content) ? message.content.map(obj) : [];
    if (message.type === "user") {
      // A tool's answer comes back as a user record of functionResponse parts: nothing typed.
      for (const part of parts) {
        const id = str(obj(part.functionResponse).id);
        const call = id ? waiting.get(id) : undefined;
        if (!id || !call) continue;
        waiting.delete(id);
        Object.assign(call, geminiTool(call.name, call.input, call.at, [part], null));
      }
      const text = typed(message);
      if (text) t.events.push({ kind: "user", text, at });
      continue;
    }
    t.model = str(message.model) ?? t.model;
    const text = texts(message.content).join("\n").trim();
    if (text) t.events.push({ kind: "assistant", text, at });
    if (Array.isArray(message.toolCalls)) {
      for (const record of message.toolCalls.map(obj)) {
        const name = str(record.name);
        if (name) t.events.push(geminiTool(name, obj(record.args), str(record.timestamp) ?? at, Array.isArray(record.result) ? record.result : null, str(record.status)));
      }
      continue;
    }
    for (const part of parts) {
      const call = obj(part.functionCall);
      const name = str(call.name);
      if (!name) continue;
      const event = geminiTool(name, obj(call.args), at, null, null);
      const id = str(call.id);
      if (id) waiting.set(id, event);
      t.events.push(event);
    }
  }
  return t;
}

/** Gemini CLI's folder of a project's session files (`~/.gemini/tmp/<project>/chats`) names the project's root in `../.project_root`. */
function projectRoot(transcript: string): string | null {
  try {
    const root = readFileSync(path.join(path.dirname(path.dirname(transcript)), ".project_root"), "utf8").trim();
    return path.isAbsolute(root) ? root : null;
  } catch {
    return null;
  }
}

/** When a file was last written, or null when it cannot be read (a dangling link, a file just removed). */
function modifiedAt(file: string): number | null {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * The session's file when the hook did not name it: Gemini CLI names it after the first 8 characters of
 * the session id, in the folder of whichever project the session ran in; the newest such file wins.
 */
export function findGeminiTranscript(sessionId: string, home: string): string | null {
  const id8 = sessionId.slice(0, 8);
  if (!/^[\w-]{8}$/.test(id8)) return null;
  const tmp = path.join(home, ".gemini", "tmp");
  let best: { file: string; mtime: number } | null = null;
  try {
    for (const project of readdirSync(tmp)) {
      const chats = path.join(tmp, project, "chats");
      let names: string[];
      try {
        names = readdirSync(chats);
      } catch {
        continue;
      }
      for (const name of names) {
        if (!name.startsWith("session-") || !name.endsWith(`-${id8}.jsonl`)) continue;
        const file = path.join(chats, name);
        const mtime = modifiedAt(file);
        if (mtime !== null && (!best || mtime > best.mtime)) best = { file, mtime };
      }
    }
  } catch {
    return null;
  }
  return best?.file ?? null;
}

export const geminiTranscript: TranscriptReader = {
  read(facts: HookFacts, { maxBytes, onError }) {
    const file = facts.transcriptPath ?? (facts.sessionId && homeFolder() ? findGeminiTranscript(facts.sessionId, homeFolder()!) : null);
    const text = readTail(file, maxBytes, onError);
    if (text === null || !file) return null;
    const session = parseGeminiTranscript(text);
    session.sessionId ??= facts.sessionId;
    session.cwd = facts.cwd ?? projectRoot(file);
    return session;
  },
};
