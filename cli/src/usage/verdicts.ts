import path from "node:path";
import type { Session } from "../agents/session";

// Used or not (issue 27), decided on the developer's machine: did the session touch what a learning
// it was given is about? Its files (edited, written, read or deleted), a command it names that the
// session ran, or — conservatively — its distinctive words in what the session said and wrote. Only
// the verdict leaves the machine. Pure rules: the worker's disk and git checks are in report-usage.ts.

export type TouchHow = "file" | "command" | "words";
export type Verdict = { id: string; touched: boolean; how: TouchHow | null };
export type CheckedLearning = { id: string; content: string; files: string[] };

/** What a session did, as the verdicts read it: paths relative to the repository root (or cwd), commands, its own words. */
export type SessionFacts = { touched: Set<string>; changed: Set<string>; deleted: Set<string>; commands: string[]; text: string };

/** Argument names under which agents' tools name the file they read or change. */
const PATH_KEYS = ["file_path", "path", "filePath", "absolute_path", "notebook_path", "file"];
/** Shell deletions: `rm a b`, `git rm a`, `unlink a`. */
const DELETE = /(?:^|[;&|]\s*)(?:git\s+rm|rm|unlink)\s+([^;&|]+)/g;

/** A path the session named, relative to `root` when it lies inside it ("" when it is the root). */
export function relativeTo(root: string, cwd: string, file: string): string {
  const abs = path.resolve(cwd, file);
  const rel = path.relative(root, abs);
  return rel.startsWith("..") || path.isAbsolute(rel) ? abs : rel.split(path.sep).join("/");
}

/** The facts of a session the verdicts and flags read; `root` is the repository's root (else the cwd). */
export function sessionFacts(session: Session, root: string, cwd: string): SessionFacts {
  const facts: SessionFacts = { touched: new Set(), changed: new Set(), deleted: new Set(), commands: [], text: "" };
  const texts: string[] = [];
  const rel = (file: string) => relativeTo(root, cwd, file);
  for (const e of session.events) {
    if (e.kind !== "tool") {
      texts.push(e.text);
      continue;
    }
    for (const f of e.files) {
      const file = rel(f.path);
      facts.touched.add(file);
      (f.how === "deleted" ? facts.deleted : facts.changed).add(file);
    }
    for (const key of PATH_KEYS) {
      const value = e.input[key];
      if (typeof value === "string" && value && value.length < 500) facts.touched.add(rel(value));
    }
    if (e.command) {
      facts.commands.push(e.command);
      for (const m of e.command.matchAll(DELETE)) {
        for (const arg of m[1]!.trim().split(/\s+/)) {
          if (arg.startsWith("-")) continue;
          const file = rel(arg.replace(/^["']|["']$/g, ""));
          facts.deleted.add(file);
          facts.touched.add(file);
        }
      }
    }
    // What the session wrote and ran is its own text; what tools answered is not (reading is not using).
    texts.push(JSON.stringify(e.input));
  }
  facts.text = texts.join("\n");
  return facts;
}

/** Whether a file the learning names is among the session's paths: the same path, or one ending in it ("x/package.json" for "package.json"). */
export function findFile(paths: Set<string>, named: string): string | null {
  const want = named.replace(/^\.\//, "");
  if (paths.has(want)) return want;
  for (const p of paths) if (p.endsWith(`/${want}`)) return p;
  return null;
}

/** Commands a learning names: its code spans that read as a command, and "npm run x", "make x" and the like in its prose. */
export function learningCommands(content: string): string[] {
  const found = new Set<string>();
  for (const m of content.matchAll(/`([^`\n]{3,200})`/g)) {
    const span = m[1]!.trim();
    if (/^(\.\/|[a-z][\w.-]*\s+\S)/.test(span) && /\s/.test(span)) found.add(squash(span));
  }
  for (const m of content.matchAll(/\b((?:npm|pnpm|yarn|bun)\s+run\s+[\w:.-]+|npx\s+[\w@/.-]+|make\s+[\w.-]+|cargo\s+\w+|go\s+(?:test|build|run|generate)\b|docker\s+compose\s+\w+)/g)) {
    found.add(squash(m[1]!));
  }
  return [...found];
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** Words a learning shares with many sessions regardless of what it is about: never distinctive. */
const COMMON = new Set(
  "always never should before after because instead without within between during every other these those their there where which while about would could build tests test files error errors value values string number config server client function return import export const default update change changes".split(
    " ",
  ),
);

/**
 * A learning's distinctive words: identifiers (camelCase, snake_case, kebab-case with a letter and a
 * mark, names with digits), at least five characters, not its paths or commands' plain words. Prose
 * words are never distinctive: too many sessions say "migration" without touching what it is about.
 */
export function distinctiveWords(content: string): string[] {
  const words = new Set<string>();
  for (const raw of content.split(/[\s`'"(),;:!?[\]{}<>]+/)) {
    const w = raw.replace(/^[.]+|[.]+$/g, "");
    if (w.length < 5 || w.length > 60 || w.includes("/") || COMMON.has(w.toLowerCase())) continue;
    const identifier = /[a-z][A-Z]/.test(w) || /[A-Za-z]_[A-Za-z0-9]/.test(w) || /[a-z]-[a-z]+-[a-z]/.test(w) || (/[A-Za-z]/.test(w) && /\d/.test(w) && !/^v?\d/.test(w));
    if (identifier && /^[\w.-]+$/.test(w)) words.add(w);
  }
  return [...words];
}

/** How many of a learning's distinctive words the session must use (all of them when it has fewer). */
const MIN_WORDS = 2;

/** The verdict on one learning the session was given. */
export function verdictOf(l: CheckedLearning, facts: SessionFacts): Verdict {
  if (l.files.some((f) => findFile(facts.touched, f))) return { id: l.id, touched: true, how: "file" };
  const ran = facts.commands.map(squash);
  if (learningCommands(l.content).some((c) => ran.some((r) => r.includes(c)))) return { id: l.id, touched: true, how: "command" };
  const words = distinctiveWords(l.content);
  const used = words.filter((w) => new RegExp(`(^|[^\\w-])${w.replace(/[.]/g, "\\.")}($|[^\\w-])`).test(facts.text));
  if (words.length >= MIN_WORDS && used.length >= MIN_WORDS) return { id: l.id, touched: true, how: "words" };
  return { id: l.id, touched: false, how: null };
}
