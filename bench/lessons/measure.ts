/**
 * Measures the lesson extractor on the labelled sessions in test/fixtures/lessons/<half>/: recall per
 * kind of lesson (a label is found when one proposal holds a word of each of its keyword groups) and
 * false proposals (those matching no label; a must-not they match is named). Shared by
 * `bench/lessons.ts` and the quality test.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { toolCall, type FileChange, type Session, type SessionEvent } from "../../cli/src/agents/session";
import { extractLessons } from "../../cli/src/lessons/extract-lessons";
import type { Lesson } from "../../cli/src/lessons/lesson";

type Keywords = string[][];
type RawEvent = { kind: "user" | "assistant" | "tool"; text?: string; name?: string; command?: string | null; output?: string | null; failed?: boolean | null; files?: FileChange[]; at?: string };
export type LabelledSession = {
  id: string;
  stack: string;
  agent: string;
  events: RawEvent[];
  lessons: { kind: string; lesson: string; keywords: Keywords; evidence: number[] }[];
  mustNot: { kind: string; text: string; keywords: Keywords }[];
};

const FIXTURES = path.resolve(import.meta.dirname, "../../test/fixtures/lessons");

/**
 * tune: tuned on, rule by rule. held-out: frozen before any tuning, scored only to report. unseen: a
 * second report set (sessions 49–60, written by someone who never read the extractor), never tuned on
 * either. calibrate: sessions 61–72, on which only the extractor's global limits (how much backing a
 * lesson needs, how many a session may propose) were chosen, never a rule for a session.
 */
export type Half = "tune" | "held-out" | "unseen" | "calibrate";

export function loadHalf(half: Half): LabelledSession[] {
  const dir = path.join(FIXTURES, half);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as LabelledSession);
}

/**
 * The session's number (the digits its id starts with) lies in one of `ranges`, written "25-36" or
 * "1-24,30": how a bench run picks the sessions added since the last tuning.
 */
export function inRanges(id: string, ranges: string): boolean {
  const n = Number(/^\d+/.exec(id)?.[0] ?? Number.NaN);
  return ranges.split(",").some((r) => {
    const [from, to = from] = r.split("-").map(Number);
    return n >= from! && n <= to!;
  });
}

/** The labelled session in the shape every transcript reader yields. */
export function sessionOf(labelled: LabelledSession): Session {
  const events = labelled.events.map((e): SessionEvent => {
    const at = e.at ?? null;
    if (e.kind === "tool") {
      return toolCall(e.name ?? "tool", e.command ? { command: e.command } : {}, at, { command: e.command ?? null, output: e.output ?? null, failed: e.failed ?? null, files: e.files ?? [] });
    }
    return { kind: e.kind, text: e.text ?? "", at };
  });
  return { agent: "claude", events, sessionId: labelled.id, cwd: null, branch: null, model: null, firstAt: events[0]?.at ?? null, lastAt: events.at(-1)?.at ?? null };
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ");
export const matches = (text: string, keywords: Keywords) => keywords.every((group) => group.some((word) => norm(text).includes(norm(word))));

export type Scored = {
  sessions: number;
  found: Record<string, { found: number; total: number }>;
  /** Proposals matching no label, with the must-not they match if any. */
  falses: { session: string; content: string; lesson: string; mustNot: string | null }[];
  missed: { session: string; kind: string; lesson: string }[];
  proposals: number;
};

export function score(sessions: LabelledSession[], extract: (s: Session) => Lesson[] = extractLessons): Scored {
  const result: Scored = { sessions: sessions.length, found: {}, falses: [], missed: [], proposals: 0 };
  for (const labelled of sessions) {
    const proposals = extract(sessionOf(labelled));
    result.proposals += proposals.length;
    // Labels and proposals paired as many as can be (a proposal counts for one label at most).
    const pairs = pairUp(labelled.lessons.map((l) => proposals.flatMap((p, i) => (matches(p.content, l.keywords) ? [i] : []))));
    const used = new Set(pairs.filter((p) => p >= 0));
    labelled.lessons.forEach((label, li) => {
      const tally = (result.found[label.kind] ??= { found: 0, total: 0 });
      tally.total++;
      if (pairs[li]! >= 0) tally.found++;
      else result.missed.push({ session: labelled.id, kind: label.kind, lesson: label.lesson });
    });
    proposals.forEach((p, i) => {
      if (used.has(i) || labelled.lessons.some((l) => matches(p.content, l.keywords))) return;
      const mustNot = labelled.mustNot.find((m) => matches(p.content, m.keywords));
      result.falses.push({ session: labelled.id, content: p.content, lesson: p.lesson, mustNot: mustNot ? `${mustNot.kind}: ${mustNot.text}` : null });
    });
  }
  return result;
}

/** For each label, the proposal paired with it (-1: none): a maximum matching of labels to the proposals that match them. */
function pairUp(candidates: number[][]): number[] {
  const owner = new Map<number, number>();
  const tryLabel = (label: number, seen: Set<number>): boolean => {
    for (const p of candidates[label]!) {
      if (seen.has(p)) continue;
      seen.add(p);
      const other = owner.get(p);
      if (other === undefined || tryLabel(other, seen)) {
        owner.set(p, label);
        return true;
      }
    }
    return false;
  };
  candidates.forEach((_, label) => tryLabel(label, new Set()));
  const pairs = candidates.map(() => -1);
  for (const [p, label] of owner) pairs[label] = p;
  return pairs;
}

export function recallOf(scored: Scored, kinds?: string[]): number {
  const tallies = Object.entries(scored.found).filter(([k]) => !kinds || kinds.includes(k));
  const found = tallies.reduce((n, [, t]) => n + t.found, 0);
  const total = tallies.reduce((n, [, t]) => n + t.total, 0);
  return total ? found / total : 0;
}
