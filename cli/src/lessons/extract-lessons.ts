import type { Session } from "../agents/session";
import { MAX_PROPOSALS_PER_SESSION } from "../../../lib/rules";
import { findCorrections } from "./find-corrections";
import { findExplicit } from "./find-explicit";
import { findResolvedFailures } from "./find-failures";
import { findDecisions, findFacts } from "./find-statements";
import { proposalKey, type Lesson } from "./lesson";
import { linesOf } from "./session-lines";
import { MIN_SIGNALS, weigh } from "./support";

/**
 * The lessons a session taught, from its transcript alone (no model): statements in so many words,
 * corrections, failures a later step resolved, decisions with their reason, facts found out. Each with
 * its evidence. The same thing found twice (a correction that is also a statement) is proposed once,
 * as the more confident; at most MAX_PROPOSALS_PER_SESSION, the most confident first. `limits` are
 * the product's own but for bench/lessons.ts --sweep, which measures what other limits would give.
 */
export function extractLessons(session: Session, limits: ExtractLimits = LIMITS): Lesson[] {
  const skipped = Math.max(0, session.events.length - MAX_LESSON_EVENTS);
  const recent = skipped ? { ...session, events: session.events.slice(skipped) } : session;
  const lines = linesOf(recent);
  const all = [findExplicit, findCorrections, findResolvedFailures, findDecisions, findFacts].flatMap((find) => find(recent, lines)).flatMap((l) => weigh(recent, l, limits.minSignals) ?? []);
  const found = fewest(all.sort((a, b) => b.confidence - a.confidence), limits);
  // Evidence names its turns in the whole session, as the transcript numbers them.
  return skipped ? found.map((l) => ({ ...l, evidence: l.evidence.map((e) => ({ ...e, turn: e.turn + skipped })) })) : found;
}

/**
 * Lessons are drawn from a session's last MAX_LESSON_EVENTS events at most (user's and agent's words and
 * tool calls alike); what came before is not read. A safety net: the finders read a session in about
 * linear time, and no labelled session comes near this (the longest has 35 events), but the worker runs
 * on the whole transcript at every session's end, and Gemini, opencode and Copilot at every turn's end.
 * On a longer session the first event read stands as its start (a first request states nothing but its
 * asides), and a failure before the cut that passed after it is not seen.
 */
export const MAX_LESSON_EVENTS = 5000;

/**
 * The first of each lesson said more than once, in the order given (the most confident first), at most
 * limits.perKind of each inferred kind and limits.perSession in all: read only as far as it takes to
 * find that many (a long session has thousands of candidates, each compared with those kept before it).
 */
function fewest(sorted: Lesson[], limits: ExtractLimits): Lesson[] {
  const out: Lesson[] = [];
  const perKind = new Map<string, number>();
  for (const lesson of distinct(sorted)) {
    if (out.length >= limits.perSession) break;
    if (lesson.lesson !== "explicit") perKind.set(lesson.lesson, (perKind.get(lesson.lesson) ?? 0) + 1);
    if (lesson.lesson === "explicit" || perKind.get(lesson.lesson)! <= limits.perKind) out.push(lesson);
  }
  return out;
}

/**
 * At most this many lessons of one inferred kind from a session, the most confident: a session rarely
 * settles more than one or two decisions or facts worth keeping, and the rest of what a finder reads
 * as one is mostly the way there (a reviewer's time costs more than a lesson missed). Statements in so
 * many words are the user's own and are all kept.
 */
export const MAX_PER_KIND = 2;

/** How much backing an inferred lesson needs (support.ts) and how many a session may propose. */
export type ExtractLimits = { minSignals: number; perKind: number; perSession: number };
export const LIMITS: ExtractLimits = { minSignals: MIN_SIGNALS, perKind: MAX_PER_KIND, perSession: MAX_PROPOSALS_PER_SESSION };

/** Below this share of the shorter one's words, two lessons from one message are worded apart. */
const APART = 0.3;

/** The first of each lesson said more than once (see sameLesson), in the order given, at most MAX_PROPOSALS_PER_SESSION. */
export function distinctLessons<L extends Lesson>(lessons: L[]): L[] {
  const out: L[] = [];
  for (const lesson of distinct(lessons)) if (out.push(lesson) >= MAX_PROPOSALS_PER_SESSION) break;
  return out;
}

/** A lesson with its words, each once, made once however many it is compared with. */
type Worded<L extends Lesson = Lesson> = { lesson: L; words: Set<string> };

/** The first of each lesson said more than once (see sameLesson), in the order given, as far as it is read. */
function* distinct<L extends Lesson>(lessons: L[]): Generator<L> {
  const kept: Worded<L>[] = [];
  for (const lesson of lessons) {
    // Each word once: "the" said ten times in a long lesson makes it no more like a short one.
    const worded = { lesson, words: new Set(proposalKey(lesson.content).split(" ")) };
    if (kept.some((k) => sameLesson(k, worded))) continue;
    kept.push(worded);
    yield lesson;
  }
}

/**
 * Two candidates say the same thing: worded nearly alike (most of the shorter one's words in the
 * other), or drawn from the same thing said (a user's or agent's line). Two statements made in one
 * message stay two, and so does a statement beside another lesson worded apart from it ("no, we use
 * kotlinx.serialization. and from now on plugins go in plugins/").
 */
function sameLesson({ lesson: a, words: wa }: Worded, { lesson: b, words: wb }: Worded): boolean {
  const overlap = [...wb].filter((w) => wa.has(w)).length / Math.min(wa.size, wb.size);
  if (overlap > 0.7) return true;
  if (a.lesson === "explicit" && b.lesson === "explicit") return false;
  if ((a.lesson === "explicit" || b.lesson === "explicit") && overlap < APART) return false;
  const turns = new Set(a.evidence.filter((e) => e.who !== "tool").map((e) => e.turn));
  return b.evidence.some((e) => e.who !== "tool" && turns.has(e.turn));
}
