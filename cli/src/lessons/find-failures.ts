import type { Session, SessionEvent, ToolCall } from "../agents/session";
import type { Lesson } from "./lesson";
import { cut } from "../../../lib/text/cut";
import { errorLine, evidenceOf, firstErrorLine, retracted, standing, type Line } from "./session-lines";
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

type Shell = ToolCall & { command: string };
const isShell = (e: SessionEvent | undefined): e is Shell => e?.kind === "tool" && !!e.command;

/** The command that ran: the last `&&`/`;` step before any pipe (`cd x && npm test | tail` → `npm test`). */
export function mainStep(command: string): string {
  const beforePipe = command.split(/\s\|\s|\s\|&\s/)[0]!;
  const steps = beforePipe.split(/\s*(?:&&|;|\|\|)\s*/).filter((s) => s.trim() && !/^(?:cd|set|export|source|\.)\s/.test(s.trim()) && !/^sleep\s/.test(s.trim()));
  return (steps.at(-1) ?? beforePipe).replace(/\s+2>&1\s*$/, "").trim();
}

const isEnv = (w: string) => /^[A-Z_][A-Z0-9_]*=/.test(w);
/** A shell step's words, `$(…)` and quoted strings kept whole. */
const tokens = (step: string) => step.match(/(?:\$\([^)]*\)|"[^"]*"|'[^']*'|[^\s"'])+/g) ?? [];
const words = (step: string) => tokens(step).filter((w) => !isEnv(w));
/** A word that names a program or subcommand: not a path, a number, a value or a flag. */
const BARE = /^[a-z][a-z0-9-]*$/;
const barePrefix = (ws: string[]) => {
  const end = ws.findIndex((w) => !BARE.test(w));
  return end < 0 ? ws : ws.slice(0, end);
};
const pathLike = (w: string) => /[/.:]/.test(w);
const WRAPPERS = new Set(["npx", "bundle", "poetry", "uv", "pnpm", "yarn", "npm", "go", "cargo", "docker", "./vendor/bin/sail", "python", "python3", "make", "dotnet", "mix", "flutter", "gradle", "./gradlew", "./mvnw", "mvn", "terraform", "kubectl", "helm"]);

/**
 * Two runs of the same command: the same program (and subcommand, for tools that have them); the
 * targets may differ when they are paths (one test file, then its folder), flags and env always may.
 */
function sameTarget(a: string, b: string): boolean {
  const [wa, wb] = [words(mainStep(a)).filter((w) => !w.startsWith("-")), words(mainStep(b)).filter((w) => !w.startsWith("-"))];
  if (!wa.length || wa[0] !== wb[0]) return false;
  // Subcommands agree as far as both name them (`docker compose exec web airflow …` is not `… exec web python …`).
  const [ba, bb] = [barePrefix(wa), barePrefix(wb)];
  if (ba.slice(0, bb.length).some((w, k) => w !== bb[k])) return false;
  if (!WRAPPERS.has(wa[0]!)) return true;
  const [sa, sb] = [wa[1], wb[1]];
  return sa === sb || (!!sa && !!sb && pathLike(sa) && pathLike(sb));
}

/** Flags that change what a run prints, not whether it works. */
const OUTPUT_FLAGS = /^-(?:q|v+|s|x|-quiet|-verbose|-nocapture|-no-color|no-color|-color(?:=.*)?|-tb=.*|count=\d+|-silent|-progress.*|-plain|-info|-debug|-stacktrace)$/;

const SETTING = /^['"]?[\w.,:=@/ -]+['"]?$/;
const isFlag = (w: string | undefined) => !!w && /^--?[a-z]/i.test(w);

/**
 * What the passing run has that the failing one had not: env assignments and flags, each flag with its
 * value (`-r jlink`), and an old flag given a new value (`-destination '…OS=17.2'` after `…OS=17.5`).
 */
function added(failing: string, passing: string): string[] {
  const had = new Set(tokens(failing));
  const now = tokens(passing);
  return [
    ...new Set(
      now.flatMap((w, k) => {
        if (had.has(w)) return [];
        if (isEnv(w)) return [w];
        const value = now[k + 1];
        if (isFlag(w) && !OUTPUT_FLAGS.test(w)) return [value && !isFlag(value) && !had.has(value) && !pathLike(value) ? `${w} ${value}` : w];
        // A setting given anew (`OS=17.2`, `jlink`), not a payload (`'{"id": …}'`).
        const flag = now[k - 1];
        return isFlag(flag) && had.has(flag!) && !OUTPUT_FLAGS.test(flag!) && SETTING.test(w) ? [`${flag} ${w}`] : [];
      }),
    ),
  ];
}

/**
 * A flag that carries a setting (an env assignment, a flag with its value) says how this project runs; a
 * bare switch nobody explained (`-upgrade`, `--preset`, `--update-goldens`) is the agent's trial, an
 * output option or a one-off order, and is no lesson without someone saying why.
 */
const settles = (flag: string) => isEnv(flag) || flag.includes(" ");

const NO = /^\s*(?:no\b|nope\b|don'?t\b|dont\b|stop\b|that'?s (?:not|wrong)|wait\b)|[,.\s]no\.?\s*$/i;

/** The user rejects what was just done: the next thing the user says, before the agent acts again, says no. */
function rejectedAfter(events: SessionEvent[], turn: number): boolean {
  const at = events.findIndex((e, j) => j > turn && e.kind === "user");
  if (at < 0 || events.slice(turn + 1, at).some((e) => e.kind === "tool")) return false;
  const next = events[at]!;
  return next.kind === "user" && NO.test(next.text);
}

/** How the agent says what it changes: "Changing the tests to …", "Setting X in pool.go", "Adding `--shm-size`". */
const FIX_VERB = /^(?:changing|setting|adding|using|switching|moving|putting|replacing|removing|pinning|passing|making|wrapping|marking|enabling|disabling|bumping|downgrading|upgrading|recording|registering|installing|so the fix|the fix)\b/i;

/** The sentence where the agent says what it changes for the fix, in its last words before the last edit before the pass. */
function fixSentence(session: Session, lines: Line[], from: number, to: number): { text: string; turn: number } | null {
  const lastEdit = session.events.findLastIndex((e, j) => j > from && j < to && e.kind === "tool" && (e.files.length > 0 || e.failed === false));
  const said = lines.filter((l) => l.who === "assistant" && l.turn > from && l.turn < (lastEdit > 0 ? lastEdit : to)).at(-1);
  if (!said) return null;
  const s = said.sentences.filter((x) => FIX_VERB.test(x) || /\bto `[^`]+`/.test(x)).at(-1);
  return s ? { text: s, turn: said.turn } : null;
}

/**
 * What the agent said between the failure and the pass that still stands: once it retracts an idea
 * ("scratch that", "I was wrong about …"), everything it said before is a disproved guess.
 */
function standingSaid(lines: Line[], from: number, to: number): { s: string; turn: number; k: number; line: Line }[] {
  const span = lines.filter((l) => l.who === "assistant" && l.turn > from && l.turn < to);
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
  const lastEdit = session.events.findLastIndex((e, j) => j > from && j < to && e.kind === "tool" && e.files.some((f) => !restored.has(f.path)));
  const beforeEdit = lastEdit > 0 ? said.filter((x) => x.turn < lastEdit) : said;
  return diagnosis(session, beforeEdit.filter((x) => x.turn > lastFailure), from, to, error) ?? diagnosis(session, beforeEdit, from, to, error);
}

/** A command's steps (`&&`, `;`, `||` apart), each without what it is piped into. */
const stepsOf = (command: string) =>
  command
    .split(/\s*(?:&&|;|\|\|)\s*/)
    .map((s) => s.split(/\s\|&?\s/)[0]!.replace(/\s+2>&1\s*$/, "").trim())
    .filter(Boolean);
/** Steps that only look, print or move files around: not what made a run pass. */
const INERT = /^(?:echo|sleep|cat|ls|grep|rg|find|head|tail|sed|which|pwd|cp|mv|rm|mkdir|touch|git (?:diff|status|log|show|commit|push|checkout))\b/;
/** Staging files is inert when it is for a commit in the same command; before a build it changes what the build sees (a flake's source is what git tracks). */
const inert = (step: string, steps: string[]) => INERT.test(step) || (/^git add\b/.test(step) && steps.some((s) => /^git commit\b/.test(s)));

/** What a command run first did: its steps that act (`pulumi login gs://…`), without moving around or looking (`cd`, `ls`, `… ls`). */
const doing = (command: string) => {
  const steps = stepsOf(command).filter((s) => !/^cd\s/.test(s) && !inert(s, []) && !/\b(?:ls|list|show|status|info)$/.test(s));
  return steps.length ? steps.join(" && ") : mainStep(command);
};

/** The step of `command` that runs what `failing` ran (`west build && west flash && tio …` → `tio …`), else its main step. */
const runOf = (command: string, failing: string) => stepsOf(command).findLast((s) => sameTarget(s, failing)) ?? mainStep(command);
/** `command` runs again what `failing` ran, as its main step or as one of its steps. */
const runsAgain = (command: string, failing: string) => sameTarget(command, failing) || stepsOf(command).some((s) => sameTarget(s, failing));

/**
 * What the passing run did first that the first failing run did not: `export X=…`, `eval $(…)`, a
 * `cd`, an install chained before the same command. The failing run is the symptom the next session meets.
 */
function prepSteps(failing: string, passing: string): string[] {
  const had = new Set(stepsOf(failing));
  const steps = stepsOf(passing);
  const last = steps.findLastIndex((s) => sameTarget(s, failing));
  return steps.slice(0, Math.max(0, last)).filter((s) => !had.has(s) && !sameTarget(s, failing) && !inert(s, steps));
}

/** What the user said between the failure and the pass that states something: not a question, not an order alone. */
function userTold(lines: Line[], from: number, to: number): { text: string; turn: number } | null {
  const told = lines.filter((l) => l.who === "user" && l.turn > from && l.turn < to).at(-1);
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
  const asked = lines.filter((l) => l.who === "user" && l.turn < failedAt).at(-1)?.turn ?? -1;
  const filesOf = (from: number, to: number) => session.events.slice(from, to).flatMap((e) => (e.kind === "tool" ? e.files.map((f) => f.path) : []));
  const written = new Set(filesOf(asked + 1, failedAt));
  const restored = restoredBetween(session, failedAt, passedAt);
  const fixed = filesOf(failedAt + 1, passedAt).filter((f) => !restored.has(f));
  return fixed.length > 0 && fixed.every((f) => written.has(f));
}

export function findResolvedFailures(session: Session, lines: Line[]): Lesson[] {
  const found: Lesson[] = [];
  const done = new Set<number>();
  const { events } = session;
  events.forEach((failed, i) => {
    if (done.has(i) || !isShell(failed) || failed.failed !== true) return;
    const passedAt = events.findIndex((e, j) => j > i && isShell(e) && e.failed === false && runsAgain(e.command, failed.command) && !rejectedAfter(events, j));
    if (passedAt < 0) return;
    let lastFailure = i;
    for (let j = i; j < passedAt; j++) {
      const e = events[j];
      if (isShell(e) && runsAgain(e.command, failed.command)) {
        done.add(j);
        if (e.failed === true) lastFailure = j;
      }
    }
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
