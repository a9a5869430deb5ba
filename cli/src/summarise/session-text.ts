import type { Session, SessionEvent } from "../agents/session";
import { cut, oneLine } from "../../../lib/text/cut";

/**
 * The session as a model reads it: one numbered line per event (`[12] user: …`), numbered as the
 * session's turns, so the lines a lesson cites are the evidence the worker takes from the transcript
 * itself, never text the model wrote. Built from the redacted session: nothing the redactor kept back
 * leaves the machine. Over the budget, the first requests (what the session was for) and the latest
 * events are kept and the middle is left out.
 */

/** About 15k tokens: room for a long session in any model's window, and a bill nobody minds. */
export const MAX_SESSION_TEXT = 60_000;
const MAX_SAID = 2_000;
const MAX_OUTPUT = 400;
/** Of the budget, what the session's beginning may take. */
const HEAD_SHARE = 0.25;

function lineOf(e: SessionEvent, turn: number): string | null {
  if (e.kind !== "tool") {
    const text = oneLine(e.text);
    return text ? `[${turn}] ${e.kind}: ${cut(text, MAX_SAID)}` : null;
  }
  const what = e.command ? `$ ${oneLine(e.command)}` : [e.name, ...e.files.map((f) => `${f.how} ${f.path}`)].join(" ");
  const how = e.failed === true ? "failed" : e.failed === false ? "ok" : null;
  const output = e.output ? oneLine(e.output) : "";
  return `[${turn}] tool ${cut(what, 300)}${how ? ` (${how})` : ""}${output ? `: ${cut(output, MAX_OUTPUT)}` : ""}`;
}

export function sessionText(session: Session, budget = MAX_SESSION_TEXT): string {
  const lines = session.events.map(lineOf).filter((l): l is string => l !== null);
  const size = (ls: string[]) => ls.reduce((n, l) => n + l.length + 1, 0);
  if (size(lines) <= budget) return lines.join("\n");
  const head: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > budget * HEAD_SHARE) break;
    head.push(line);
    used += line.length + 1;
  }
  const tail: string[] = [];
  for (let i = lines.length - 1; i >= head.length; i--) {
    if (used + lines[i]!.length + 1 > budget) break;
    tail.unshift(lines[i]!);
    used += lines[i]!.length + 1;
  }
  const left = lines.length - head.length - tail.length;
  return [...head, `[… ${left} lines of the session left out …]`, ...tail].join("\n");
}
