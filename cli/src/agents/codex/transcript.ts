import type { TranscriptReader } from "../agent";
import { jsonLines, obj, readTail, str } from "../read-tail";
import { emptySession, toolCall, type FileChange, type Session, type SessionEvent } from "../session";

/**
 * Codex CLI's rollout file (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl`, the
 * hook's transcript_path), one `{timestamp, type, payload}` a line, as 0.169 writes it
 * (test/fixtures/agents/codex/):
 * - `session_meta`: `id`, `cwd`, `git.branch`; `turn_context`: `model`, `cwd` (each turn);
 * - `response_item`: what went to and came from the model: `message` (role user, developer or
 *   assistant, `content[].text`), `function_call` (`exec_command` with `{"cmd"}`, older `shell` with
 *   `{"command": [...]}`), `custom_tool_call` (`apply_patch` with the patch as `input`), and their
 *   `function_call_output` / `custom_tool_call_output` by `call_id`;
 * - `event_msg`: what the user saw: `item_completed` with a `UserMessage` (what the user typed, where
 *   the user-role `response_item`s also carry Codex's environment context and AGENTS.md) or a
 *   `CommandExecution` (its `exit_code`); older versions wrote `user_message` events instead.
 * Anything else is skipped; a line that is not JSON is skipped.
 */

type Part = { type?: unknown; text?: unknown };

const textOf = (content: unknown): string =>
  Array.isArray(content)
    ? content
        .filter((p: Part) => p && typeof p.text === "string")
        .map((p: Part) => p.text as string)
        .join("\n")
        .trim()
    : "";

/** The files a Codex patch (`*** Begin Patch` … `*** End Patch`) adds, updates, moves or deletes. */
export function patchFiles(patch: string): FileChange[] {
  const files: FileChange[] = [];
  for (const line of patch.split("\n")) {
    const m = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line.trimEnd()) ?? /^\*\*\* (Move) to: (.+)$/.exec(line.trimEnd());
    if (!m) continue;
    const [, verb, file] = m;
    if (verb === "Move") {
      // The file updated just before is renamed: gone from its old path, written at the new one.
      const last = files.at(-1);
      if (last) last.how = "deleted";
      files.push({ path: file!.trim(), how: "written" });
    } else {
      files.push({ path: file!.trim(), how: verb === "Add" ? "written" : verb === "Delete" ? "deleted" : "edited" });
    }
  }
  return files;
}

/** The exit code a tool output reports: unified exec's "Process exited with code N", apply_patch's "Exit code: N", older shell's JSON metadata. */
function exitCode(output: string): number | null {
  const m = /^(?:Process exited with code|Exit code:) (-?\d+)$/m.exec(output);
  if (m) return Number(m[1]);
  if (output.startsWith("{")) {
    try {
      const code = obj(obj(JSON.parse(output)).metadata).exit_code;
      if (typeof code === "number") return code;
    } catch {
      // plain text that starts with a brace
    }
  }
  return null;
}

/** What the command printed, without the header Codex puts before it for the model (chunk id, wall time, exit code). */
function outputText(output: unknown): string | null {
  const text = typeof output === "string" ? output : output && typeof output === "object" ? (str(obj(output).content) ?? textOf(obj(output).content)) : null;
  if (text == null) return null;
  const at = text.indexOf("\nOutput:\n");
  return at >= 0 ? text.slice(at + "\nOutput:\n".length) : text;
}

function parseArguments(raw: unknown): Record<string, unknown> {
  if (typeof raw !== "string") return obj(raw);
  try {
    return obj(JSON.parse(raw));
  } catch {
    return {};
  }
}

/** The command a shell tool ran: exec_command's `cmd`, shell's argv (`["bash", "-lc", "…"]` shows its script), a local shell call's action. */
function commandOf(input: Record<string, unknown>): string | null {
  const cmd = str(input.cmd) ?? (typeof input.command === "string" ? input.command : null);
  if (cmd) return cmd;
  const action = obj(input.action);
  const argv = Array.isArray(input.command) ? input.command : Array.isArray(action.command) ? action.command : null;
  if (!argv || !argv.every((a) => typeof a === "string")) return null;
  const words = argv as string[];
  return words.length === 3 && /(^|\/)(ba|z)?sh$/.test(words[0]!) && /^-l?c$/.test(words[1]!) ? words[2]! : words.join(" ");
}

/** The session being read: its events, and each tool call waiting for its output by call_id. */
type Reading = { session: Session; events: SessionEvent[]; pending: Map<string, number> };

function addTool(r: Reading, callId: string | null, name: string, input: Record<string, unknown>, at: string | null): void {
  const command = name === "apply_patch" ? null : commandOf(input);
  // A patch comes as apply_patch's input, or as a shell command Codex intercepts (`apply_patch <<'EOF' …`).
  const patch = name === "apply_patch" ? (str(input.input) ?? str(input.patch) ?? "") : command?.includes("*** Begin Patch") ? command : "";
  r.events.push(toolCall(name, input, at, { command, files: patch ? patchFiles(patch) : [] }));
  if (callId) r.pending.set(callId, r.events.length - 1);
}

function settle(r: Reading, callId: string | null, known: { output?: string | null; failed?: boolean | null }): void {
  const index = callId == null ? undefined : r.pending.get(callId);
  const call = index === undefined ? undefined : r.events[index];
  if (call?.kind !== "tool") return;
  const output = known.output !== undefined ? known.output : call.output;
  r.events[index!] = toolCall(call.name, call.input, call.at, { files: call.files, command: call.command, output, failed: known.failed ?? call.failed });
}

function responseItem(r: Reading, p: Record<string, unknown>, at: string | null): void {
  if (p.type === "message" && p.role === "assistant") {
    const text = textOf(p.content);
    if (text) r.events.push({ kind: "assistant", text, at });
  } else if (p.type === "function_call" && typeof p.name === "string") {
    addTool(r, str(p.call_id), p.name, parseArguments(p.arguments), at);
  } else if (p.type === "custom_tool_call" && typeof p.name === "string") {
    addTool(r, str(p.call_id), p.name, { input: typeof p.input === "string" ? p.input : "" }, at);
  } else if (p.type === "local_shell_call") {
    addTool(r, str(p.call_id), "local_shell", { action: p.action }, at);
  } else if (p.type === "function_call_output" || p.type === "custom_tool_call_output") {
    const output = outputText(p.output);
    const code = output == null ? null : exitCode(typeof p.output === "string" ? p.output : output);
    settle(r, str(p.call_id), { output, failed: code == null ? null : code !== 0 });
  }
}

function eventMsg(r: Reading, p: Record<string, unknown>, at: string | null): void {
  const item = obj(p.item);
  if (p.type === "item_completed" && item.type === "UserMessage") {
    const text = textOf(item.content);
    if (text) r.events.push({ kind: "user", text, at });
  } else if (p.type === "user_message") {
    const text = str(p.message)?.trim();
    if (text) r.events.push({ kind: "user", text, at });
  } else if (p.type === "item_completed" && item.type === "CommandExecution" && typeof item.exit_code === "number") {
    settle(r, str(item.id), { failed: item.exit_code !== 0 });
  }
}

export function parseCodexRollout(jsonl: string): Session {
  const r: Reading = { session: emptySession("codex"), events: [], pending: new Map() };
  const session = r.session;
  for (const line of jsonLines(jsonl)) {
    const p = obj(line.payload);
    const at = str(line.timestamp);
    if (at) {
      session.firstAt ??= at;
      session.lastAt = at;
    }
    if (line.type === "session_meta") {
      session.sessionId ??= str(p.id) ?? str(p.session_id);
      session.cwd = str(p.cwd) ?? session.cwd;
      session.branch = str(obj(p.git).branch) ?? session.branch;
    } else if (line.type === "turn_context") {
      session.model = str(p.model) ?? session.model;
      session.cwd = str(p.cwd) ?? session.cwd;
    } else if (line.type === "response_item") responseItem(r, p, at);
    else if (line.type === "event_msg") eventMsg(r, p, at);
  }
  session.events = r.events;
  return session;
}

export const codexTranscript: TranscriptReader = {
  read(facts, { maxBytes, onError }) {
    const text = readTail(facts.transcriptPath, maxBytes, onError);
    if (text === null) return null;
    const session = parseCodexRollout(text);
    // A tail cut past the session's first line has lost its meta: the hook said which session it is.
    session.sessionId ??= facts.sessionId;
    session.cwd ??= facts.cwd;
    return session;
  },
};
