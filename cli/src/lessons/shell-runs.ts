import type { SessionEvent, ToolCall } from "../agents/session";

/**
 * Shell commands as findResolvedFailures compares them: a command's steps and main step, two runs of the
 * same command, what a passing run added to a failing one (flags, env, steps run first), and where the
 * passing runs of each program are.
 */

export type Shell = ToolCall & { command: string };
export const isShell = (e: SessionEvent | undefined): e is Shell => e?.kind === "tool" && !!e.command;

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

/** A command's main step as two runs are compared: its words but flags and env, and the bare words it starts with. */
export type Target = { words: string[]; bare: string[] };
export function targetOf(command: string): Target {
  const ws = words(mainStep(command)).filter((w) => !w.startsWith("-"));
  return { words: ws, bare: barePrefix(ws) };
}

/**
 * Two runs of the same command: the same program (and subcommand, for tools that have them); the
 * targets may differ when they are paths (one test file, then its folder), flags and env always may.
 */
const sameTarget = (a: string, b: string) => sameTargets(targetOf(a), targetOf(b));
export function sameTargets(a: Target, b: Target): boolean {
  const [wa, wb] = [a.words, b.words];
  if (!wa.length || wa[0] !== wb[0]) return false;
  // Subcommands agree as far as both name them (`docker compose exec web airflow …` is not `… exec web python …`).
  const [ba, bb] = [a.bare, b.bare];
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
export function added(failing: string, passing: string): string[] {
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
export const settles = (flag: string) => isEnv(flag) || flag.includes(" ");

/** A shell call that passed, with what it ran: its main step's target and each step's (runsAgain matches either). */
export type Pass = { turn: number; targets: Target[] };

/**
 * What two runs of the same command (sameTargets) share: the program, and for a wrapper its subcommand,
 * or that it names a path, or none (`npm test` and `npm install` never match). Undefined: no program.
 */
export function programOf(target: Target): string | undefined {
  const [program, sub] = target.words;
  if (program === undefined || !WRAPPERS.has(program)) return program;
  return `${program} ${sub === undefined ? "" : pathLike(sub) ? "(path)" : sub}`;
}

/**
 * The shell calls that passed, in order, by the program they run (programOf): where findResolvedFailures
 * looks for the run that passed after a failure, rather than in every event after it, each command read once.
 */
export function passesByProgram(events: SessionEvent[]): Map<string, Pass[]> {
  const passes = new Map<string, Pass[]>();
  events.forEach((e, turn) => {
    if (!isShell(e) || e.failed !== false) return;
    const pass = { turn, targets: [targetOf(e.command), ...stepsOf(e.command).map(targetOf)] };
    for (const program of new Set(pass.targets.map(programOf))) {
      if (program === undefined) continue;
      const runs = passes.get(program);
      if (runs) runs.push(pass);
      else passes.set(program, [pass]);
    }
  });
  return passes;
}

/** A command's steps (`&&`, `;`, `||` apart), each without what it is piped into. */
const stepsOf = (command: string) =>
  command
    .split(/\s*(?:&&|;|\|\|)\s*/)
    .map((s) => s.split(/\s\|&?\s/)[0]!.replace(/\s+2>&1\s*$/, "").trim())
    .filter(Boolean);
/**
 * Commands whose failing exit answers a question ("no match", "they differ", "no such file", "not
 * installed"): a search that found nothing and a later one that found something resolved no failure.
 * Unlike INERT (below: steps that did not make a run pass), a question is the whole command: every step
 * of it asks (or moves to a folder), and a `find` that runs something for what it finds acts.
 */
const ASKS = /^(?:grep|egrep|fgrep|rg|ag|ack|git grep|test|\[\[?|diff|cmp|which|command -v|type|pgrep|ls|find|stat|file|git diff --(?:quiet|exit-code)|git ls-files --error-unmatch)(?=\s|$)/;
export const onlyAsks = (command: string) => stepsOf(command).every((step) => /^cd\s/.test(step) || (ASKS.test(step) && !/\s-(?:exec|execdir|ok|okdir|delete)\b/.test(step)));

/** Steps that only look, print or move files around: not what made a run pass. */
const INERT = /^(?:echo|sleep|cat|ls|grep|rg|find|head|tail|sed|which|pwd|cp|mv|rm|mkdir|touch|git (?:diff|status|log|show|commit|push|checkout))\b/;
/** Staging files is inert when it is for a commit in the same command; before a build it changes what the build sees (a flake's source is what git tracks). */
const inert = (step: string, steps: string[]) => INERT.test(step) || (/^git add\b/.test(step) && steps.some((s) => /^git commit\b/.test(s)));

/** What a command run first did: its steps that act (`pulumi login gs://…`), without moving around or looking (`cd`, `ls`, `… ls`). */
export const doing = (command: string) => {
  const steps = stepsOf(command).filter((s) => !/^cd\s/.test(s) && !inert(s, []) && !/\b(?:ls|list|show|status|info)$/.test(s));
  return steps.length ? steps.join(" && ") : mainStep(command);
};

/** The step of `command` that runs what `failing` ran (`west build && west flash && tio …` → `tio …`), else its main step. */
export const runOf = (command: string, failing: string) => stepsOf(command).findLast((s) => sameTarget(s, failing)) ?? mainStep(command);
/** `command` runs again what `failing` ran, as its main step or as one of its steps. */
export const runsAgain = (command: string, failing: string) => sameTarget(command, failing) || stepsOf(command).some((s) => sameTarget(s, failing));

/**
 * What the passing run did first that the first failing run did not: `export X=…`, `eval $(…)`, a
 * `cd`, an install chained before the same command. The failing run is the symptom the next session meets.
 */
export function prepSteps(failing: string, passing: string): string[] {
  const had = new Set(stepsOf(failing));
  const steps = stepsOf(passing);
  const last = steps.findLastIndex((s) => sameTarget(s, failing));
  return steps.slice(0, Math.max(0, last)).filter((s) => !had.has(s) && !sameTarget(s, failing) && !inert(s, steps));
}
