import type { Session, ToolCall } from "../agents/session";
import type { Lesson } from "./lesson";
import { cut, evidenceOf, firstErrorLine, sentences, type Line } from "./session-lines";
import { GUESS, QUESTION, statement } from "./wording";

/**
 * Resolved failures: a command failed with a real error, a later run of the same command passed, and
 * something between says why — a different way of running it (an env var, a flag), another command run
 * first, or the agent's explanation of the cause. The lesson is that fix, which the next session needs.
 */

/** The assistant explaining a cause. */
const CAUSE = /\b(?:because|the (?:cause|reason|problem|issue) (?:is|was)|caused by|turns out|it turns out|needs?|requires?|must|has to|have to|was missing|is missing|expects?|only (?:works|runs)|due to|that'?s why|so that'?s|fixed (?:it|by)|the fix)\b/i;

/** A command's words without its env assignments, for telling runs of the same command apart from others. */
const words = (command: string) => command.trim().split(/\s+/).filter((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w));

/** Two runs of the same command: same program and subcommand (the rest may differ: flags, env, targets). */
function sameTarget(a: string, b: string): boolean {
  const [wa, wb] = [words(a), words(b)];
  if (!wa.length || !wb.length) return false;
  const head = (w: string[]) => w.slice(0, w[0] === "npx" || w[0] === "bundle" || w[0] === "poetry" || w[0] === "uv" ? 3 : 2).join(" ");
  return head(wa) === head(wb);
}

/** What the passing run has that the failing one had not: env assignments and flags. */
function added(failing: string, passing: string): string[] {
  const had = new Set(failing.trim().split(/\s+/));
  return passing
    .trim()
    .split(/\s+/)
    .filter((w) => !had.has(w) && (/^[A-Z_][A-Z0-9_]*=/.test(w) || w.startsWith("-")));
}

const shell = (e: Session["events"][number]): e is ToolCall & { command: string } => e.kind === "tool" && !!e.command;

export function findResolvedFailures(session: Session, lines: Line[]): Lesson[] {
  const found: Lesson[] = [];
  const done = new Set<number>();
  const events = session.events;
  events.forEach((failed, i) => {
    if (done.has(i) || !shell(failed) || failed.failed !== true) return;
    // The first later run of the same command that passed.
    const passedAt = events.findIndex((e, j) => j > i && shell(e) && e.failed === false && sameTarget(e.command, failed.command));
    if (passedAt < 0) return;
    for (let j = i; j < passedAt; j++) if (shell(events[j]!) && sameTarget((events[j] as ToolCall & { command: string }).command, failed.command)) done.add(j);
    const passed = events[passedAt] as ToolCall & { command: string };
    const error = firstErrorLine(failed.output);
    const between = events.slice(i + 1, passedAt).map((e, k) => ({ e, turn: i + 1 + k }));
    const otherCommands = between.filter(({ e }) => shell(e) && e.failed !== true && !sameTarget(e.command, failed.command)) as { e: ToolCall & { command: string }; turn: number }[];
    const edits = between.filter(({ e }) => e.kind === "tool" && e.files.length);
    const flags = added(failed.command, passed.command);
    // The agent's words on the cause, between the failure and the pass (the last such sentence).
    const explained = lines
      .filter((l) => l.who === "assistant" && l.turn > i && l.turn <= passedAt + 1)
      .flatMap((l) => sentences(l.text).map((s) => ({ s, turn: l.turn })))
      .filter(({ s }) => CAUSE.test(s) && !QUESTION.test(s) && !GUESS.test(s))
      .at(-1);
    const run = cut(words(failed.command).join(" "), 80);
    let content: string | null = null;
    let confidence = 0.55;
    const evidence = [i, passedAt];
    if (flags.length) {
      content = `\`${run}\` needs ${flags.map((f) => `\`${f}\``).join(" ")}${error ? ` (without it: ${error})` : ""}`;
      confidence = 0.7;
    } else if (otherCommands.length && !edits.length) {
      const first = otherCommands.at(-1)!;
      content = `\`${run}\` needs \`${cut(first.e.command, 80)}\` first${error ? ` (otherwise: ${error})` : ""}`;
      evidence.push(first.turn);
      confidence = 0.65;
    } else if (explained) {
      content = `${explained.s.replace(/\s+/g, " ").trim().replace(/[.:]$/, "")} (\`${run}\` failed${error ? `: ${error}` : ""})`;
      evidence.push(explained.turn);
      confidence = edits.length ? 0.6 : 0.55;
    }
    if (!content) return;
    found.push({ kind: "insight", lesson: "resolved_failure", content: statement(cut(content, 400)), confidence, evidence: evidenceOf(session, evidence) });
  });
  return found;
}
