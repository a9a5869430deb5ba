import path from "node:path";
import type { Transcript } from "./parse-transcript";

/**
 * An extractive handoff: what was asked, what was done, files touched, open ends, taken from the
 * transcript as written (no model). Compact and most important first, because the context packer
 * keeps a handoff's lines from the top. Facts, not orders: agents distrust imperative context.
 */

const EDIT_TOOLS: Record<string, string> = { Edit: "edited", MultiEdit: "edited", Write: "written", NotebookEdit: "edited" };
const MAX_ASKED = 6;
const MAX_FILES = 15;
const OPEN_END = /\b(todo|to do|next step|not yet|still (need|to|has|have|missing|failing)|remaining|follow[- ]up|left to|open question|unresolved|blocked|fixme)\b/i;

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);

function relative(file: string, cwd: string | null): string {
  if (!cwd || !path.isAbsolute(file)) return file;
  const rel = path.relative(cwd, file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
}

export type HandoffInput = { transcript: Transcript; lastAssistantMessage: string | null; cwd: string | null; sessionId: string | null };

export function buildHandoff(input: HandoffInput): string | null {
  const { transcript } = input;
  const cwd = input.cwd ?? transcript.cwd;
  const asked = transcript.events.filter((e) => e.kind === "user").map((e) => oneLine(e.text));
  const said = transcript.events.filter((e) => e.kind === "assistant").map((e) => e.text);
  const last = input.lastAssistantMessage?.trim() || said.at(-1) || null;
  if (!asked.length && !last) return null;

  const files = new Map<string, Set<string>>();
  const commands: string[] = [];
  let todos: { content: string; status: string }[] = [];
  for (const e of transcript.events) {
    if (e.kind !== "tool") continue;
    const how = EDIT_TOOLS[e.name];
    const file = e.input.file_path ?? e.input.notebook_path;
    if (how && typeof file === "string" && file) {
      const key = relative(file, cwd);
      (files.get(key) ?? files.set(key, new Set()).get(key)!).add(how);
    } else if (e.name === "Bash" && typeof e.input.command === "string") {
      commands.push(cut(oneLine(e.input.command), 80));
    } else if (e.name === "TodoWrite" && Array.isArray(e.input.todos)) {
      todos = (e.input.todos as { content?: unknown; status?: unknown }[])
        .filter((t) => typeof t?.content === "string")
        .map((t) => ({ content: oneLine(t.content as string), status: String(t.status ?? "pending") }));
    }
  }

  const lines: string[] = [];
  const facts = [
    input.sessionId ?? transcript.sessionId ? `Session ${(input.sessionId ?? transcript.sessionId)!.slice(0, 8)}` : "Session",
    `${asked.length} request${asked.length === 1 ? "" : "s"}`,
    files.size ? `${files.size} file${files.size === 1 ? "" : "s"} changed` : null,
  ].filter(Boolean);
  lines.push(`${facts.join(" · ")} (extracted from the transcript by baton)`, "");

  if (asked.length) {
    lines.push("### Asked");
    const shown = asked.length > MAX_ASKED ? [asked[0]!, ...asked.slice(-(MAX_ASKED - 1))] : asked;
    shown.forEach((text, i) => {
      lines.push(`- ${cut(text, i === 0 ? 400 : 240)}`);
      if (i === 0 && asked.length > MAX_ASKED) lines.push(`- … ${asked.length - MAX_ASKED} more requests`);
    });
    lines.push("");
  }

  if (last || commands.length) {
    lines.push("### Done");
    if (last) {
      const paragraphs = last.replace(/\r\n?/g, "\n").split("\n").map((l) => l.trimEnd()).filter((l) => l.trim());
      let budget = 1500;
      for (const p of paragraphs) {
        if (budget <= 0) {
          lines.push("…");
          break;
        }
        lines.push(cut(p, Math.min(400, budget)));
        budget -= p.length;
      }
    }
    const distinct = [...new Set(commands)].slice(-5);
    if (distinct.length) lines.push(`Commands run: ${distinct.map((c) => `\`${c.replace(/`/g, "'")}\``).join(", ")}`);
    lines.push("");
  }

  if (files.size) {
    lines.push("### Files touched");
    const entries = [...files.entries()];
    for (const [file, how] of entries.slice(0, MAX_FILES)) lines.push(`- ${file} (${[...how].join(", ")})`);
    if (entries.length > MAX_FILES) lines.push(`- … ${entries.length - MAX_FILES} more files`);
    lines.push("");
  }

  const open = todos.filter((t) => t.status !== "completed").map((t) => `- [ ] ${cut(t.content, 200)}${t.status === "in_progress" ? " (in progress)" : ""}`);
  if (last) {
    for (const line of last.split("\n")) {
      const text = oneLine(line.replace(/^[-*\d.)\s]+/, ""));
      if (text && OPEN_END.test(text) && open.length < 10) open.push(`- ${cut(text, 240)}`);
    }
  }
  if (open.length) lines.push("### Open ends", ...open, "");

  while (lines.length && !lines.at(-1)) lines.pop();
  return lines.join("\n") + "\n";
}
