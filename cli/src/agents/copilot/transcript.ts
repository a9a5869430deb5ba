import { homeFolder } from "../../config/home";
import type { TranscriptReader } from "../agent";
import { jsonLines, obj, readTail, str } from "../read-tail";
import { emptySession, toolCall, type FileChange, type Session, type ToolCall } from "../session";
import { sessionEventsFile } from "./copilot-home";

/**
 * GitHub Copilot CLI's session log, `~/.copilot/session-state/<sessionId>/events.jsonl`: one event a
 * line, `{type, data, id, timestamp, parentId}`, `agentId` on a sub-agent's events. What a handoff
 * needs: `session.start` (cwd, branch, model), `user.message` (`content` is what the user typed;
 * `transformedContent`, with the hooks' `<system_reminder>` context, is what the model got),
 * `assistant.message` (`content`, `toolRequests` [{toolCallId, name, arguments}]) and
 * `tool.execution_complete` (`success`, `result.content`, `error.message`, `shellExecution.exitCode`,
 * `fileEdits` [{path, kind}]). The format is Copilot's internal one: anything unexpected is skipped.
 */

const EDIT_KIND: Record<string, FileChange["how"]> = { create: "written", edit: "edited", delete: "deleted" };

/** Copilot's file tools, by the argument naming the file. */
const FILE_TOOLS: Record<string, FileChange["how"]> = { create: "written", edit: "edited", str_replace: "edited" };

/** apply_patch's file headers (the GPT models' edit tool): every file it adds, updates, deletes or moves to. */
const PATCH_HEADER = /^\*\*\* (Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm;
const PATCH_HOW: Record<string, FileChange["how"]> = { Add: "written", Update: "edited", Delete: "deleted" };

function patchFiles(patch: string): FileChange[] {
  return [...patch.matchAll(PATCH_HEADER)].map((m) => ({ path: (m[2] ?? m[3]!).trim(), how: m[1] ? PATCH_HOW[m[1]]! : "written" }));
}

/**
 * What a tool call says it will do, from its name and arguments (the completion replaces files with
 * what was done). apply_patch's arguments are the patch itself, or `{input}` or `{patch}`, as Copilot reads them.
 */
function requestedTool(name: string, args: unknown, at: string | null): ToolCall {
  const input = typeof args === "string" ? { input: args } : obj(args);
  const file = str(input.path);
  const patch = name === "apply_patch" ? (str(input.input) ?? str(input.patch)) : null;
  const files = FILE_TOOLS[name] && file ? [{ path: file, how: FILE_TOOLS[name] }] : patch ? patchFiles(patch) : [];
  return toolCall(name, input, at, { files, command: name === "bash" ? str(input.command) : null });
}

/** A completed call: its answer, whether it failed (an error, or a shell command's non-zero exit), the files it changed. */
function completed(call: ToolCall, data: Record<string, unknown>): ToolCall {
  const exitCode = obj(data.shellExecution).exitCode;
  const failed = data.success === false || (typeof exitCode === "number" && exitCode !== 0);
  const output = str(obj(data.result).content) ?? str(obj(data.error).message);
  const edits = Array.isArray(data.fileEdits)
    ? (data.fileEdits as unknown[]).map(obj).flatMap((e): FileChange[] => (str(e.path) && EDIT_KIND[String(e.kind)] ? [{ path: e.path as string, how: EDIT_KIND[String(e.kind)]! }] : []))
    : null;
  return toolCall(call.name, call.input, call.at, { ...call, files: edits?.length ? edits : call.files, output, failed });
}

export function parseCopilotTranscript(jsonl: string): Session {
  const t = emptySession("copilot");
  const calls = new Map<string, ToolCall>();
  for (const line of jsonLines(jsonl)) {
    // A sub-agent's work is reported back to the main agent through its tool call.
    if (line.agentId !== undefined) continue;
    const data = obj(line.data);
    if (data.parentToolCallId !== undefined) continue;
    const at = str(line.timestamp);
    if (at) {
      t.firstAt ??= at;
      t.lastAt = at;
    }
    switch (line.type) {
      case "session.start":
      case "session.resume": {
        const context = obj(data.context);
        t.sessionId ??= str(data.sessionId);
        t.cwd = str(context.cwd) ?? t.cwd;
        t.branch = str(context.branch) ?? t.branch;
        t.model = str(data.selectedModel) ?? t.model;
        break;
      }
      case "session.model_change":
        t.model = str(data.newModel) ?? t.model;
        break;
      case "user.message": {
        // `source` marks text the CLI put there (a skill's injection, another agent's message); autopilot types its own continuations.
        const text = str(data.content)?.trim();
        if (text && data.source === undefined && data.isAutopilotContinuation !== true) t.events.push({ kind: "user", text, at });
        break;
      }
      case "assistant.message": {
        t.model = str(data.model) ?? t.model;
        const text = str(data.content)?.trim();
        if (text) t.events.push({ kind: "assistant", text, at });
        for (const request of Array.isArray(data.toolRequests) ? (data.toolRequests as unknown[]).map(obj) : []) {
          const name = str(request.name);
          if (!name) continue;
          const call = requestedTool(name, request.arguments, at);
          const id = str(request.toolCallId);
          if (id) calls.set(id, call);
          t.events.push(call);
        }
        break;
      }
      case "tool.execution_complete": {
        const id = str(data.toolCallId);
        const call = id ? calls.get(id) : undefined;
        if (call) Object.assign(call, completed(call, data));
        break;
      }
    }
  }
  return t;
}

export const copilotTranscript: TranscriptReader = {
  read(facts, { maxBytes, onError }) {
    // Only agentStop and preCompact name the file; sessionEnd gives the session id, and Copilot keeps its log under it.
    const file = facts.transcriptPath ?? (homeFolder() ? sessionEventsFile(homeFolder()!, facts.sessionId) : null);
    const text = readTail(file, maxBytes, onError);
    return text === null ? null : parseCopilotTranscript(text);
  },
};
