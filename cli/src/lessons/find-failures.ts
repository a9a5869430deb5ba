import type { Session, SessionEvent } from "../agents/session";
import type { Lesson } from "./lesson";
import { cut } from "../../../lib/text/cut";
import { errorLine, evidenceOf, firstErrorLine, lastIndex, lastLineBefore, linesBetween, retracted, standing, type Line } from "./session-lines";
import { added, doing, isShell, mainStep, onlyAsks, passesByProgram, prepSteps, programOf, runOf, runsAgain, sameTargets, settles, targetOf, type Pass, type Shell } from "./shell-runs";
import { GUESS, OPENS, ORDER_ONLY, OWN_DOING, PLAN, QUESTION, RETRACT, specifics, statement } from "./wording";

/**
 * Resolved failures: a command failed with a real error, a later run of the same command passed, and
 * something between says why — a different way of running it (an env var, a flag), another command run
 * first, or the agent's diagnosis before the fix. The lesson is that fix, which the next session needs.
 * A pass the user rejects right after ("no, …") resolves nothing.
 */

/** The agent explaining a cause. */
const CAUSE =
  /\b(?:because|the (?:real |actual )?(?:cause|reason|problem|issue|culprit|difference)(?: is| was|:)|cause:|caused by|turns out|there it is|that'?s (?:it|why)|hence|so the fix|fix is|the fix|needs?|requires?|must|has to|have to|was missing|is missing|isn'?t set|doesn'?t set|not set|expects?|only (?:works|runs|records|resolves)|by default|due to|panics? on|refuses|never runs?|rolled back)\b/i;

const NO = /^\s*(?:no\b|nope\b|don'?t\b|dont\b|stop\b|that'?s (?:not|wrong)|wait\b)|[,.\s]no\.?\s*$/i;

/** The user rejects what was just done: the next thing the user says, before the agent acts again, says no. */
function rejectedAfter(events: SessionEvent[], turn: number, next: NextOf): boolean {
  const at = next.user[turn + 1]!;
  if (at < 0 || (next.tool[turn + 1]! >= 0 && next.tool[turn + 1]! < at)) return false;
  const said = events[at]!;
  return said.kind === "user" && NO.test(said.text);
}

/**
 * Where the next event of each kind is: user[k] (and tool[k]) the first user's (tool's) event at k or
 * after, -1 when none. Built once per session: a search from the start for every candidate was quadratic.
 */
type NextOf = { user: Int32Array; tool: Int32Array };
function nextOf(events: SessionEvent[]): NextOf {
  const next = { user: new Int32Array(events.length + 1).fill(-1), tool: new Int32Array(events.length + 1).fill(-1) };
  for (let k = events.length - 1; k >= 0; k--) {
    const kind = events[k]!.kind;
    next.user[k] = kind === "user" ? k : next.user[k + 1]!;
    next.tool[k] = kind === "tool" ? k : next.tool[k + 1]!;
  }
  return next;
}

/**
 * Where the same command (runsAgain, on targets read once) passed after it failed at `failedAt`, unless
 * the user said no to that run: the first such of the passing runs of its program, -1 when none.
 */
function passedAfter(events: SessionEvent[], failedAt: number, command: string, runs: { next: NextOf; passes: Map<string, Pass[]> }): number {
  const target = targetOf(command);
  const passes = runs.passes.get(programOf(target) ?? "") ?? [];
  // A binary search to the first after the failure.
  let [lo, hi] = [0, passes.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (passes[mid]!.turn > failedAt) hi = mid;
    else lo = mid + 1;
  }
  for (const pass of passes.slice(lo)) if (pass.targets.some((t) => sameTargets(t, target)) && !rejectedAfter(events, pass.turn, runs.next)) return pass.turn;
  return -1;
}

/** How the agent says what it changes: "Changing the tests to …", "Setting X in pool.go", "Adding `--shm-size`". */
const FIX_VERB = /^(?:changing|setting|adding|using|switching|moving|putting|replacing|removing|pinning|passing|making|wrapping|marking|enabling|disabling|bumping|downgrading|upgrading|recording|registering|installing|so the fix|the fix)\b/i;

/** The sentence where the agent says what it changes for the fix, in its last words before the last edit before the pass. */
function fixSentence(session: Session, lines: Line[], from: number, to: number): { text: string; turn: number } | null {
  const lastEdit = lastIndex(session.events, to, (e) => e.kind === "tool" && (e.files.length > 0 || e.failed === false), from);
  const said = linesBetween(lines, from, lastEdit > 0 ? lastEdit : to).findLast((l) => l.who === "assistant");
  if (!said) return null;
  const s = said.sentences.filter((x) => FIX_VERB.test(x) || /\bto `[^`]+`/.test(x)).at(-1);
  return s ? { text: s, turn: said.turn } : null;
}

/**
 * What the agent said between the failure and the pass that still stands: once it retracts an idea
 * ("scratch that", "I was wrong about …"), everything it said before is a disproved guess.
 */
function standingSaid(lines: Line[], from: number, to: number): { s: string; turn: number; k: number; line: Line }[] {
  const span = linesBetween(lines, from, to).filter((l) => l.who === "assistant");
  const lastRetraction = span.findLastIndex((l) => l.sentences.some((s) => RETRACT.test(s)));
  return span.slice(Math.max(0, lastRetraction)).filter((line) => !retracted(lines, line)).flatMap((line) => {
    const kept = new Set(standing(line));
    return line.sentences.flatMap((s, k) => (kept.has(s) ? [{ s, turn: line.turn, k, line }] : []));
  });
}

/**
 * The agent's sentences on the cause between the failure and the pass, best first: cause words, then
 * words of the error, then names a tool printed on the way (the agent explaining what it just read).
 */
function diagnosis(session: Session, said: ReturnType<typeof standingSaid>, from: number, to: number, error: string | null): { text: string; turn: number } | null {
  const errorWords = specifics(error ?? "");
  const printed = session.events
    .slice(from, to)
    .flatMap((e) => (e.kind === "tool" ? [e.output ?? ""] : []))
    .join("\n")
    .toLowerCase();
  const scored = said
    .filter(({ s }) => !QUESTION.test(s) && !GUESS.test(s) && !PLAN.test(s) && s.split(/\s+/).length >= 5)
    .map((c) => {
      const words = [...specifics(c.s)];
      const read = words.some((w) => printed.includes(w)) ? 1 : 0;
      return { ...c, score: (CAUSE.test(c.s) ? 2 : 0) + words.filter((w) => errorWords.has(w)).length + (words.length ? 1 : 0) + read + c.turn / 1000 };
    })
    .filter((c) => c.score >= 2);
  if (!scored.length) return null;
  const best = scored.sort((a, b) => b.score - a.score)[0]!;
  // With the sentence after it, which often names the remedy ("pytest-django has a fixture for this").
  const next = best.line.sentences[best.k + 1];
  const withNext = next && !QUESTION.test(next) && !PLAN.test(next) && specifics(next).size > 0 ? `${best.s} ${next}` : best.s;
  return { text: cut(withNext, 360), turn: best.turn };
}

/**
 * The diagnosis of the last failure first (an earlier run may have failed for another reason, fixed on
 * the way), else of any; what the agent said after its last edit comments on the result, not the cause.
 */
function lastDiagnosis(session: Session, said: ReturnType<typeof standingSaid>, from: number, lastFailure: number, to: number, error: string | null) {
  const restored = restoredBetween(session, from, to);
  const lastEdit = lastIndex(session.events, to, (e) => e.kind === "tool" && e.files.some((f) => !restored.has(f.path)), from);
  const beforeEdit = lastEdit > 0 ? said.filter((x) => x.turn < lastEdit) : said;
  return diagnosis(session, beforeEdit.filter((x) => x.turn > lastFailure), from, to, error) ?? diagnosis(session, beforeEdit, from, to, error);
}

/** What the user said between the failure and the pass that states something: not a question, not an order alone. */
function userTold(lines: Line[], from: number, to: number): { text: string; turn: number } | null {
  const told = linesBetween(lines, from, to).findLast((l) => l.who === "user");
  const said = told?.sentences.filter((s) => !QUESTION.test(s) && !ORDER_ONLY.test(s.replace(OPENS, "")) && s.split(/\s+/).length >= 4);
  return told && said?.length ? { text: cut(said.slice(0, 3).map((s) => s.replace(OPENS, "")).join(" "), 300), turn: told.turn } : null;
}

/** Files a command puts back as committed (`git checkout -- x`, `git restore x`): an edit it undoes fixed nothing. */
const RESTORES = /\bgit (?:checkout|restore)\s+(?:--\s+)?([^\s&|;]+)/g;
const restoredBetween = (session: Session, from: number, to: number) =>
  new Set(session.events.slice(from, to + 1).flatMap((e) => (isShell(e) ? [...e.command.matchAll(RESTORES)].map((m) => m[1]!) : [])));

/**
 * The failure came from the agent's own new work and was fixed by editing again only what it had just
 * written (a wrong route constraint, a test still reading the old shape, goldens of the new row): its
 * work in progress, which teaches the next session nothing. Edits a later `git checkout` undid do not count.
 */
function ownSlip(session: Session, lines: Line[], failedAt: number, passedAt: number): boolean {
  const asked = lastLineBefore(lines, failedAt, "user")?.turn ?? -1;
  const filesOf = (from: number, to: number) => session.events.slice(from, to).flatMap((e) => (e.kind === "tool" ? e.files.map((f) => f.path) : []));
  const written = new Set(filesOf(asked + 1, failedAt));
  const restored = restoredBetween(session, failedAt, passedAt);
  const fixed = filesOf(failedAt + 1, passedAt).filter((f) => !restored.has(f));
  return fixed.length > 0 && fixed.every((f) => written.has(f));
}

/** The last run of `command` from `from` to before `to` that failed; each run of it there is marked `done`. */
function runsBetween(events: SessionEvent[], from: number, to: number, command: string, done: Set<number>): number {
  let lastFailure = from;
  for (let j = from; j < to; j++) {
    const e = events[j];
    if (isShell(e) && runsAgain(e.command, command)) {
      done.add(j);
      if (e.failed === true) lastFailure = j;
    }
  }
  return lastFailure;
}

export function findResolvedFailures(session: Session, lines: Line[]): Lesson[] {
  const found: Lesson[] = [];
  const done = new Set<number>();
  const { events } = session;
  const runs = { next: nextOf(events), passes: passesByProgram(events) };
  events.forEach((failed, i) => {
    if (done.has(i) || !isShell(failed) || failed.failed !== true || onlyAsks(failed.command)) return;
    const passedAt = passedAfter(events, i, failed.command, runs);
    if (passedAt < 0) return;
    const lastFailure = runsBetween(events, i, passedAt, failed.command, done);
    const passed = events[passedAt] as Shell;
    // The first failure's error: the symptom the next session will meet (the line the cause explains, once known).
    let error = firstErrorLine(failed.output) ?? firstErrorLine((events[lastFailure] as Shell).output);
    const between = events.slice(lastFailure + 1, passedAt).map((e, k) => ({ e, turn: lastFailure + 1 + k }));
    const otherCommands = between.filter((b): b is { e: Shell; turn: number } => isShell(b.e) && b.e.failed !== true && !runsAgain(b.e.command, failed.command) && !/^(?:cat|ls|grep|rg|find|head|tail|sed|git (?:diff|status|log|show)|echo|which|pwd)\b/.test(mainStep(b.e.command)));
    const edited = between.some(({ e }) => e.kind === "tool" && e.files.length);
    const flags = added(runOf((events[lastFailure] as Shell).command, failed.command), runOf(passed.command, failed.command));
    const prep = prepSteps(failed.command, passed.command);
    const said = standingSaid(lines, i, passedAt);
    if (said.some(({ s }) => OWN_DOING.test(s))) return;
    const diagnosed = lastDiagnosis(session, said, i, lastFailure, passedAt, error);
    if (!diagnosed && !flags.length && !prep.length && !otherCommands.length && ownSlip(session, lines, i, passedAt)) return;
    // Without the agent's diagnosis, the user speaking up between the failure and the pass says why.
    const told = diagnosed ? null : userTold(lines, lastFailure, passedAt);
    const cause = diagnosed ?? told;
    if (cause) error = errorLine(failed.output, cause.text) ?? error;
    const fix = fixSentence(session, lines, lastFailure, passedAt);
    const why = cause && fix && fix.text !== cause.text ? { text: `${cause.text.replace(/[.:]$/, "")}. Fix: ${fix.text}`, turn: cause.turn, fixTurn: fix.turn } : cause ? { ...cause, fixTurn: null } : fix ? { ...fix, fixTurn: null } : null;
    const run = cut(runOf(failed.command, failed.command), 80);
    const evidence = [lastFailure, passedAt];
    let content: string;
    let confidence: number;
    if (prep.length) {
      content = `\`${run}\` needs ${prep.map((p) => `\`${cut(p, 80)}\``).join(" and ")} first${why ? `: ${why.text.replace(/[.:]$/, "")}` : ""}${error ? ` (otherwise: ${error})` : ""}`;
      confidence = 0.65;
    } else if (flags.length && !(edited && why) && (flags.some(settles) || (why && !otherCommands.length))) {
      // The user's reason rarely names the symptom: the error goes with it.
      content = `\`${run}\` needs ${flags.map((f) => `\`${f}\``).join(" ")}${why ? `: ${why.text}` : ""}${error && (!why || told) ? ` (without: ${error})` : ""}`;
      confidence = 0.7;
    } else if (otherCommands.length && !edited) {
      const first = otherCommands.at(-1)!;
      content = `\`${run}\` needs \`${cut(doing(first.e.command), 80)}\` first${why ? `: ${why.text}` : ""}${error && (!why || told) ? ` (otherwise: ${error})` : ""}`;
      evidence.push(first.turn);
      confidence = 0.65;
    } else if (why) {
      content = `${why.text.replace(/[.:]$/, "")} (\`${run}\` failed${error ? `: ${error}` : ""})`;
      confidence = edited ? 0.6 : 0.55;
    } else return;
    if (why) evidence.push(why.turn, ...(why.fixTurn === null ? [] : [why.fixTurn]));
    if (told) evidence.push(told.turn);
    found.push({ kind: "insight", lesson: "resolved_failure", content: statement(cut(content, 500)), confidence, evidence: evidenceOf(session, evidence) });
  });
  return found;
}
