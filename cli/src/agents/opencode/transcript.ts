import type { TranscriptReader } from "../agent";
import { jsonLines, readTail, str } from "../read-tail";
import { emptySession, toolCall, type FileChange, type Session, type TodoItem } from "../session";

// opencode's session as Baton's plugin writes it (plugin-transcript.ts: a line with the session's info,
// then one `{info, parts}` a message) or as `opencode export <id>` prints it (one object,
// `{info, messages: [{info, parts}]}`). A user message's text parts are what the user typed, except
// `synthetic` ones (what plugins, Baton's prompt stage among them, added) and `ignored` ones; an
// assistant message's parts are text, reasoning, tool calls (`type: "tool"`, `tool`, `state: {status,
// input, output | error, metadata, time}`) and bookkeeping (step-start, step-finish, patch), skipped.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const iso = (ms: unknown): string | null => (typeof ms === "number" && Number.isFinite(ms) ? new Date(ms).toISOString() : null);

/** The session's info and its messages, from either format; lines that do not parse are skipped. */
function records(text: string): { info: Obj | null; messages: Obj[] } {
  try {
    const whole: unknown = JSON.parse(text);
    if (isObj(whole) && Array.isArray(whole.messages)) return { info: isObj(whole.info) ? whole.info : null, messages: whole.messages.filter(isObj) };
  } catch {
    // not one object: lines
  }
  let info: Obj | null = null;
  const messages: Obj[] = [];
  for (const line of jsonLines(text)) {
    if (!isObj(line.info)) continue;
    if (Array.isArray(line.parts)) messages.push(line);
    else info = line.info;
  }
  return { info, messages };
}

/** Files a patch (opencode's `patch`/`apply_patch` tools) adds, updates, moves or deletes. */
function patchFiles(patch: string): FileChange[] {
  const files: FileChange[] = [];
  for (const match of patch.matchAll(/^\*\*\* (Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm)) {
    if (match[3]) files.push({ path: match[3].trim(), how: "written" });
    else files.push({ path: match[2]!.trim(), how: match[1] === "Add" ? "written" : match[1] === "Delete" ? "deleted" : "edited" });
  }
  return files;
}

function filesOf(tool: string, input: Obj): FileChange[] {
  const file = str(input.filePath);
  if (tool === "write" && file) return [{ path: file, how: "written" }];
  if ((tool === "edit" || tool === "multiedit") && file) return [{ path: file, how: "edited" }];
  const patch = str(input.patchText) ?? str(input.patch);
  if ((tool === "patch" || tool === "apply_patch") && patch) return patchFiles(patch);
  return [];
}

function todosOf(tool: string, input: Obj): TodoItem[] | null {
  if (tool !== "todowrite" || !Array.isArray(input.todos)) return null;
  return input.todos.filter(isObj).flatMap((t) => (str(t.content) ? [{ content: str(t.content)!, status: str(t.status) ?? "pending" }] : []));
}

/** One `type: "tool"` part as a ToolCall: an error, or a shell command's non-zero exit, is a failure. */
function toolPart(part: Obj) {
  const tool = str(part.tool) ?? "tool";
  const state = isObj(part.state) ? part.state : {};
  const input = isObj(state.input) ? state.input : {};
  const metadata = isObj(state.metadata) ? state.metadata : {};
  const status = state.status;
  const exit = metadata.exit;
  const failed = status === "error" ? true : status === "completed" ? typeof exit === "number" && exit !== 0 : null;
  return toolCall(tool, input, iso(isObj(state.time) ? state.time.start : null), {
    files: failed ? [] : filesOf(tool, input),
    command: tool === "bash" ? str(input.command) : null,
    todos: todosOf(tool, input),
    output: str(state.output) ?? str(state.error),
    failed,
  });
}

/**
 * `opencode run "a b"` sends the user's words as `"a b"`: each argument with a space quoted (and its
 * quotes escaped), so a message that is one such argument is unquoted back into what was typed.
 */
const runArgument = (text: string) => /^"(?:[^"\\]|\\")*"$/s.exec(text)?.[0].slice(1, -1).replace(/\\"/g, '"') ?? text;

const textParts = (parts: Obj[]) =>
  parts
    .filter((p) => p.type === "text" && !p.synthetic && !p.ignored && typeof p.text === "string" && p.text.trim())
    .map((p) => runArgument(p.text as string))
    .join("\n");

/** The Session of opencode's records: the user's turns, the assistant's text and tool calls, in order. */
export function parseOpencodeSession(text: string): Session {
  const { info, messages } = records(text);
  const session = emptySession("opencode");
  session.sessionId = str(info?.id);
  session.cwd = str(info?.directory);
  for (const message of messages) {
    const meta = message.info as Obj;
    const parts = (message.parts as unknown[]).filter(isObj);
    const at = iso(isObj(meta.time) ? meta.time.created : null);
    if (at) {
      session.firstAt ??= at;
      session.lastAt = at;
    }
    if (meta.role === "user") {
      const typed = textParts(parts);
      if (typed) session.events.push({ kind: "user", text: typed, at });
      continue;
    }
    // A compaction's summary is opencode's own text, not the assistant's turn.
    if (meta.role !== "assistant" || meta.summary === true) continue;
    session.model = str(meta.modelID) ?? session.model;
    session.cwd ??= isObj(meta.path) ? str(meta.path.cwd) : null;
    for (const part of parts) {
      if (part.type === "tool") session.events.push(toolPart(part));
      else if (part.type === "text" && !part.synthetic && str(part.text)?.trim()) {
        session.events.push({ kind: "assistant", text: part.text as string, at: iso(isObj(part.time) ? part.time.start : null) ?? at });
      }
    }
  }
  return session;
}

export const opencodeTranscript: TranscriptReader = {
  read(facts, { maxBytes, onError }) {
    const text = readTail(facts.transcriptPath, maxBytes, onError);
    if (text === null) return null;
    const session = parseOpencodeSession(text);
    session.sessionId ??= facts.sessionId;
    session.cwd ??= facts.cwd;
    session.model ??= facts.model;
    return session;
  },
};
