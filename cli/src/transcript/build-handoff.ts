import path from "node:path";
import type { Session, SessionEvent } from "../agents/session";
import { cut, oneLine } from "../../../lib/text/cut";

/**
 * An extractive handoff: what was asked, what was done, files touched, open ends, taken from the
 * transcript as written (no model). Compact and most important first, because the context packer
 * keeps a handoff's lines from the top. Facts, not orders: agents distrust imperative context.
 */

const MAX_ASKED = 6;
const MAX_FILES = 15;
const MAX_OPEN_ENDS = 10;
/** Characters of the last message kept under "Done". */
const DONE_BUDGET = 1500;
const OPEN_END = /\b(todo|to do|next step|not yet|still (need|to|has|have|missing|failing)|remaining|follow[- ]up|left to|open question|unresolved|blocked|fixme)\b/i;

function relative(file: string, cwd: string | null): string {
  if (!cwd || !path.isAbsolute(file)) return file;
  const rel = path.relative(cwd, file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
}

/**
 * `withheld`: the redactor's one line on what it kept back (secrets, private blocks), said right under
 * the facts. `checkpoint`: taken before a compaction, mid-session (SessionEnd later replaces it).
 */
export type HandoffInput = { transcript: Session; lastAssistantMessage: string | null; cwd: string | null; sessionId: string | null; withheld?: string | null; checkpoint?: boolean; summary?: WrittenSummary };

/**
 * What a model wrote of the session (cli/src/summarise/): it replaces the requests and the last message
 * under Asked, Done and Open ends; the facts (files, commands, todos) still come from the transcript.
 */
export type WrittenSummary = { by: string; asked: string; done: string[]; open: string[] };

/** What the tools did: files edited or written (and how), shell commands, the last todo list. */
type ToolWork = { files: Map<string, Set<string>>; commands: string[]; todos: { content: string; status: string }[] };

function toolWork(events: SessionEvent[], cwd: string | null): ToolWork {
  const work: ToolWork = { files: new Map(), commands: [], todos: [] };
  for (const e of events) {
    if (e.kind !== "tool") continue;
    for (const change of e.files) {
      const key = relative(change.path, cwd);
      (work.files.get(key) ?? work.files.set(key, new Set()).get(key)!).add(change.how);
    }
    if (e.command) work.commands.push(cut(oneLine(e.command), 80));
    if (e.todos) work.todos = e.todos.map((t) => ({ content: oneLine(t.content), status: t.status }));
  }
  return work;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
const commandsLine = (commands: string[]) => `Commands run: ${commands.map((c) => `\`${c.replace(/`/g, "'")}\``).join(", ")}`;

function factsLine(sessionId: string | null, asked: string[], files: ToolWork["files"], checkpoint: boolean, by: string | null): string {
  const facts = [
    checkpoint ? "Checkpoint before compaction" : null,
    sessionId ? `Session ${sessionId.slice(0, 8)}` : "Session",
    plural(asked.length, "request"),
    files.size ? `${plural(files.size, "file")} changed` : null,
  ].filter(Boolean);
  return `${facts.join(" · ")} (${by ? `summarised by ${by} from the transcript` : "extracted from the transcript by baton"})`;
}

/** The first request (what the session was for) and the latest ones. */
function askedSection(asked: string[]): string[] {
  if (!asked.length) return [];
  const lines = ["### Asked"];
  const shown = asked.length > MAX_ASKED ? [asked[0]!, ...asked.slice(-(MAX_ASKED - 1))] : asked;
  shown.forEach((text, i) => {
    lines.push(`- ${cut(text, i === 0 ? 400 : 240)}`);
    if (i === 0 && asked.length > MAX_ASKED) lines.push(`- … ${asked.length - MAX_ASKED} more requests`);
  });
  return [...lines, ""];
}

/** The agent's last message, cut to a budget, and the last distinct commands it ran. */
function doneSection(last: string | null, commands: string[]): string[] {
  if (!last && !commands.length) return [];
  const lines = ["### Done"];
  if (last) {
    const paragraphs = last.replace(/\r\n?/g, "\n").split("\n").map((l) => l.trimEnd()).filter((l) => l.trim());
    let budget = DONE_BUDGET;
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
  if (distinct.length) lines.push(commandsLine(distinct));
  return [...lines, ""];
}

function filesSection(files: ToolWork["files"]): string[] {
  if (!files.size) return [];
  const entries = [...files.entries()];
  const lines = ["### Files touched", ...entries.slice(0, MAX_FILES).map(([file, how]) => `- ${file} (${[...how].join(", ")})`)];
  if (entries.length > MAX_FILES) lines.push(`- … ${entries.length - MAX_FILES} more files`);
  return [...lines, ""];
}

/** Todos not completed, then what the summary says is open, else lines of the last message that sound unfinished. */
function openEndsSection(todos: ToolWork["todos"], last: string | null, summary: WrittenSummary | undefined): string[] {
  const open = todos.filter((t) => t.status !== "completed").map((t) => `- [ ] ${cut(t.content, 200)}${t.status === "in_progress" ? " (in progress)" : ""}`);
  const said = summary ? summary.open : (last ? last.split("\n") : []).map((line) => oneLine(line.replace(/^[-*\d.)\s]+/, ""))).filter((text) => OPEN_END.test(text));
  for (const text of said) if (text && open.length < MAX_OPEN_ENDS) open.push(`- ${cut(oneLine(text), 240)}`);
  return open.length ? ["### Open ends", ...open, ""] : [];
}

/** A summary's Asked and Done: its own words, with the commands the transcript shows were run. */
function summarySections(summary: WrittenSummary, commands: string[]): string[] {
  const asked = summary.asked ? ["### Asked", cut(oneLine(summary.asked), 600), ""] : [];
  const distinct = [...new Set(commands)].slice(-5);
  const done = [...summary.done.slice(0, MAX_OPEN_ENDS).map((d) => `- ${cut(oneLine(d), 300)}`), ...(distinct.length ? [commandsLine(distinct)] : [])];
  return [...asked, ...(done.length ? ["### Done", ...done, ""] : [])];
}


export function buildHandoff(input: HandoffInput): string | null {
  const { transcript, summary } = input;
  const asked = transcript.events.filter((e) => e.kind === "user").map((e) => oneLine(e.text));
  const said = transcript.events.filter((e) => e.kind === "assistant").map((e) => e.text);
  const last = input.lastAssistantMessage?.trim() || said.at(-1) || null;
  if (!asked.length && !last && !summary) return null;

  const work = toolWork(transcript.events, input.cwd ?? transcript.cwd);
  const lines = [
    factsLine(input.sessionId ?? transcript.sessionId, asked, work.files, input.checkpoint === true, summary?.by ?? null),
    ...(input.withheld ? [input.withheld] : []),
    "",
    ...(summary ? summarySections(summary, work.commands) : [...askedSection(asked), ...doneSection(last, work.commands)]),
    ...filesSection(work.files),
    ...openEndsSection(work.todos, last, summary),
  ];
  while (lines.length && !lines.at(-1)) lines.pop();
  return lines.join("\n") + "\n";
}
