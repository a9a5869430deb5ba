import type { Session } from "../agents/session";
import { MAX_EVIDENCE_CHARS, MAX_EVIDENCE_LINES, type EvidenceLine } from "../../../lib/rules";
import { cut, oneLine } from "../../../lib/text/cut";
import { DENIES, RETRACT, SAME_AGAIN } from "./wording";

/**
 * The session as numbered lines the lesson finders read: each event's index (its turn), time, who, and
 * its text split into sentences (without code blocks and pasted logs, which state nothing).
 */
export type Line = { turn: number; at: string | null; who: "user" | "assistant"; text: string; sentences: string[] };



/** Sentences of prose: code blocks, inline code's dots, list markers and quoted lines left out. */
export function sentences(text: string): string[] {
  // Inline code's dots and question marks end no sentence: held as private-use characters while splitting.
  const held: Record<string, string> = { ".": "\uE000", "!": "\uE001", "?": "\uE002" };
  const back = (s: string) => s.replace(/[\uE000-\uE002]/g, (c) => ({ "\uE000": ".", "\uE001": "!", "\uE002": "?" })[c]!);
  const withoutCode = text.replace(/```[\s\S]*?```/g, "\n").replace(/`[^`\n]*`/g, (m) => m.replace(/[.!?]/g, (c) => held[c]!));
  const out: string[] = [];
  for (const line of withoutCode.split(/\n+/)) {
    if (/^\s*>/.test(line)) continue;
    const clean = line.replace(/^\s*(?:[-*]|\d+[.)])\s+/, "").trim();
    if (!clean) continue;
    // People type lower-case after a full stop too; abbreviations ("e.g.", "vs.") end nothing.
    for (const s of clean.split(/(?<!\b(?:e\.g|i\.e|etc|vs|cf|approx|incl))(?<=[.!?])\s+(?=[A-Za-z"'(`])/)) if (s.trim()) out.push(back(s.trim()));
  }
  return out;
}

export function linesOf(session: Session): Line[] {
  const lines: Line[] = [];
  session.events.forEach((e, turn) => {
    if (e.kind === "user" || e.kind === "assistant") lines.push({ turn, at: e.at, who: e.kind, text: e.text, sentences: sentences(e.text) });
  });
  return lines;
}

/**
 * Where the lines after `turn` start in `lines` (lines.length when none): `lines` are in turn order, as
 * linesOf makes them, so a binary search finds it. The finders read the lines near one they look at
 * through this, never by filtering all of them (a session of 50,000 events took most of a minute that way).
 */
export function firstAfter(lines: Line[], turn: number): number {
  let [lo, hi] = [0, lines.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (lines[mid]!.turn > turn) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The index of the last item before `before` and after `after` that passes `test`, walked back; -1 when none. */
export function lastIndex<T>(items: readonly T[], before: number, test: (item: T) => boolean, after = -1): number {
  for (let j = Math.min(before, items.length) - 1; j > after; j--) if (test(items[j]!)) return j;
  return -1;
}

/** The last line of `who` before `turn`. */
export const lastLineBefore = (lines: Line[], turn: number, who: Line["who"]): Line | undefined => lines[lastIndex(lines, firstAfter(lines, turn - 1), (l) => l.who === who)];

/** The lines strictly between turns `from` and `to`, in order. */
export const linesBetween = (lines: Line[], from: number, to: number): Line[] => lines.slice(firstAfter(lines, from), firstAfter(lines, to - 1));

/**
 * What the agent says in `line` was taken back: its next words retract it ("I was wrong about …",
 * "scratch that", "you're right"), or the user's next words deny it ("no, …", "hm? look at the actual
 * error"). A disproved guess, whatever a tool printed in between.
 */
export function retracted(lines: Line[], line: Line): boolean {
  if (line.who !== "assistant") return false;
  const from = firstAfter(lines, line.turn);
  let next: Line | undefined;
  for (let k = from; k < lines.length && !next; k++) if (lines[k]!.who === "assistant") next = lines[k];
  const answer = lines[from]?.who === "user" ? lines[from] : undefined;
  return (!!next && (next.sentences.some((s) => RETRACT.test(s)) || SAME_AGAIN.test(next.text.trim()))) || (!!answer && DENIES.test(answer.text.trim()));
}

/** The sentences of `line` that say something: an agent's retraction ("that wasn't it") only takes back what came before. */
export function standing(line: Line): string[] {
  return line.who === "assistant" ? line.sentences.filter((s) => !RETRACT.test(s)) : line.sentences;
}

/** A transcript's time as the server keeps it (ISO 8601 in UTC), or null when it is not a time. */
function isoTime(at: string | null): string | null {
  if (!at) return null;
  const ms = Date.parse(/^\d+$/.test(at) ? new Date(Number(at)).toISOString() : at);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** The lines a lesson came from, in order, each cut to what the server keeps (MAX_EVIDENCE_LINES of MAX_EVIDENCE_CHARS). */
export function evidenceOf(session: Session, turns: number[]): EvidenceLine[] {
  return [...new Set(turns)]
    .sort((a, b) => a - b)
    .flatMap((turn): EvidenceLine[] => {
      const e = session.events[turn];
      if (!e) return [];
      const what =
        e.kind === "tool" ? [e.command ? `$ ${e.command}` : e.name, e.failed === true ? firstErrorLine(e.output) : e.failed === false ? "(succeeded)" : null].filter(Boolean).join(" → ") : e.text;
      const text = cut(oneLine(what), MAX_EVIDENCE_CHARS);
      return text ? [{ turn, at: isoTime(e.at), who: e.kind, text }] : [];
    })
    .slice(-MAX_EVIDENCE_LINES);
}

const ERROR_LINE = /\b(error|failed|failure|fatal|panic|panicked|exception|cannot|can't|could not|couldn't|not found|no such|undefined|refused|denied|timed? ?out|missing|invalid|unknown|expected)\b/i;

/** The line of a tool's output that says what went wrong: the first that sounds like an error, else the last. */
export function firstErrorLine(output: string | null): string | null {
  return errorLine(output, "");
}

/**
 * The line of a tool's output that says what went wrong, as `explained` explains it: of the lines that
 * sound like an error, the one sharing most words with the explanation (a wrapper's "Migration failed!"
 * says less than the "Detected both transactional and non-transactional statements" the agent explains),
 * the first on a tie; else the last line.
 */
export function errorLine(output: string | null, explained: string): string | null {
  if (!output) return null;
  const lines = output.split("\n").map((l) => l.trim()).filter(Boolean);
  const words = new Set(explained.toLowerCase().match(/[a-z][\w-]{3,}/g) ?? []);
  const shared = (l: string) => (l.toLowerCase().match(/[a-z][\w-]{3,}/g) ?? []).filter((w) => words.has(w)).length;
  const errors = lines.filter((l) => ERROR_LINE.test(l));
  const best = errors.reduce<string | undefined>((b, l) => (b === undefined || shared(l) > shared(b) ? l : b), undefined);
  return cut(best ?? lines.at(-1) ?? "", 200) || null;
}
