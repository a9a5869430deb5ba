/**
 * Claude Code's transcript JSONL, as far as a handoff needs it: one JSON object a line, `type`
 * "user" or "assistant" with `message.content` (a string, or blocks: text, tool_use {name, input},
 * tool_result, thinking), plus bookkeeping lines (summary, file-history-snapshot, …) that are skipped.
 * The format is Claude Code's internal one: anything unexpected is skipped, never fatal.
 */
export type TranscriptEvent =
  | { kind: "user"; text: string }
  | { kind: "assistant"; text: string }
  | { kind: "tool"; name: string; input: Record<string, unknown> };

export type Transcript = {
  events: TranscriptEvent[];
  sessionId: string | null;
  cwd: string | null;
  branch: string | null;
  firstAt: string | null;
  lastAt: string | null;
};

type Block = { type?: unknown; text?: unknown; name?: unknown; input?: unknown };
type Line = {
  type?: unknown;
  isMeta?: unknown;
  isSidechain?: unknown;
  isCompactSummary?: unknown;
  sessionId?: unknown;
  cwd?: unknown;
  gitBranch?: unknown;
  timestamp?: unknown;
  message?: { content?: unknown };
};

/** Text Claude Code puts in the user's turn that the user did not type. */
const NOT_TYPED = /^\s*(<command-|<local-command-|<system-reminder>|Caveat: |\[Request interrupted)/;

const str = (v: unknown) => (typeof v === "string" && v ? v : null);

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b: Block) => b && b.type === "text" && typeof b.text === "string")
    .map((b: Block) => b.text as string)
    .join("\n");
}

export function parseTranscript(jsonl: string): Transcript {
  const t: Transcript = { events: [], sessionId: null, cwd: null, branch: null, firstAt: null, lastAt: null };
  for (const raw of jsonl.split("\n")) {
    if (!raw.trim()) continue;
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
    } catch {
      continue;
    }
    if (!line || typeof line !== "object" || (line.type !== "user" && line.type !== "assistant")) continue;
    if (line.isSidechain === true || line.isMeta === true || line.isCompactSummary === true) continue;
    t.sessionId ??= str(line.sessionId);
    t.cwd = str(line.cwd) ?? t.cwd;
    t.branch = str(line.gitBranch) ?? t.branch;
    const at = str(line.timestamp);
    if (at) {
      t.firstAt ??= at;
      t.lastAt = at;
    }
    const content = line.message?.content;
    if (line.type === "user") {
      const text = textOf(content).trim();
      if (text && !NOT_TYPED.test(text)) t.events.push({ kind: "user", text });
      continue;
    }
    if (!Array.isArray(content)) {
      const text = textOf(content).trim();
      if (text) t.events.push({ kind: "assistant", text });
      continue;
    }
    for (const block of content as Block[]) {
      if (block?.type === "text" && typeof block.text === "string" && block.text.trim()) {
        t.events.push({ kind: "assistant", text: block.text.trim() });
      } else if (block?.type === "tool_use" && typeof block.name === "string") {
        const input = block.input && typeof block.input === "object" ? (block.input as Record<string, unknown>) : {};
        t.events.push({ kind: "tool", name: block.name, input });
      }
    }
  }
  return t;
}
