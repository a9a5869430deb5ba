import type { Session, SessionEvent } from "../agents/session";
import type { Lesson } from "./lesson";
import { GUESS, specifics } from "./wording";

/**
 * How well a candidate is backed, from signals independent of its words' subject (any stack reads the
 * same): who said it, whether it gives a reason, whether it names something specific, whether the other
 * side confirmed it or the session acted on it. A finder's pattern matching once is one signal; a lesson
 * a reviewer wants is nearly always backed by two or three more, and the way there (a plan, a guess, a
 * one-off) rarely is.
 */

/** A reason clause: the lesson says why, which a plan or an order rarely does. */
const REASON = /\b(?:because|since|so that|otherwise|that'?s (?:why|the|it)|which is why|which means|hence|due to|the (?:real |actual )?(?:cause|reason)|bc|cuz|else)\b|,\s*so\b|\bso (?:the|a|an|it|its|every|nobody|no|we|they|you|any|that|this)\b|\bor (?:else|it)\b|\bonly\b|\bwithout\b|\bif\b[^.]*\bthen\b/i;
/** The other side agreeing right after: "yes", "right", "good catch", "makes sense", "you're right", "got it". */
const AGREES = /^(?:yes|yep|yeah|yup|right|correct|exactly|good|great|perfect|nice|thanks|thank you|makes sense|agreed|sounds good|ok(?:ay)?[,.!]?\s*(?:good|great|thanks|perfect|makes sense)|got it|understood|you'?re right|ah|oh|good (?:catch|point))\b/i;
/** Saying it is only for now: a workaround or a one-off, not how things are. */
const FOR_NOW = /\b(?:for now|for the moment|for this (?:one|run|pr|ticket|time)|just this once|this time|temporar(?:y|ily)|until (?:we|the|it)|as a stopgap|quick hack|workaround for today)\b/i;

/** What the session did after `turn` mentions one of `words`: a command, an edit's path or a tool's output. */
function actedOn(session: Session, after: number, words: Set<string>): boolean {
  if (!words.size) return false;
  return session.events.slice(after + 1, after + 8).some((e) => {
    if (e.kind !== "tool") return false;
    const seen = `${e.command ?? ""} ${e.files.map((f) => f.path).join(" ")}`.toLowerCase();
    return [...words].some((w) => seen.includes(w));
  });
}

/** The other side's next words after event `turn`: the user's after the agent's, the agent's after the user's, either after a tool's. */
function replyAfter(session: Session, turn: number): Extract<SessionEvent, { text: string }> | undefined {
  const who = session.events[turn]?.kind;
  // (Walked from the event on, not sliced: a slice of the rest for each candidate was quadratic in a long session.)
  for (let j = Math.max(0, turn + 1); j < session.events.length; j++) {
    const e = session.events[j]!;
    if ((e.kind === "user" || e.kind === "assistant") && e.kind !== who) return e;
  }
  return undefined;
}

export type Support = { signals: string[]; doubts: string[] };

export function supportOf(session: Session, lesson: Lesson): Support {
  const signals: string[] = [];
  const doubts: string[] = [];
  const turns = lesson.evidence.map((e) => e.turn);
  const last = Math.max(...turns);
  const whos = new Set(lesson.evidence.map((e) => e.who));
  // The user is who knows how things are here: their own words count twice over the agent's narration.
  if (whos.has("user")) signals.push("user", "user's words");
  // What a finder appends (the error a failing run printed) is not the lesson's own reason.
  const said = lesson.content.replace(/\((?:without|otherwise|`[^`]*` failed): [^)]*\)?\.?$/, "");
  if (REASON.test(said)) signals.push("reason");
  const named = specifics(said);
  if (named.size || /`[^`]+`|\b(?=\w*\d)(?=\w*[a-z])\w+\b/i.test(said)) signals.push("specific");
  // A run failed and a later one passed: what the session itself proved.
  if (lesson.evidence.some((e) => e.who === "tool" && e.text.endsWith("(succeeded)")) && lesson.evidence.some((e) => e.who === "tool" && !e.text.endsWith("(succeeded)"))) signals.push("proved");
  // The other side's next words agree (the user after the agent, the agent after the user).
  const reply = replyAfter(session, last);
  if (reply && AGREES.test(reply.text.trim())) signals.push("confirmed");
  if (actedOn(session, last, named)) signals.push("acted");
  // A hedge or a "for now" in what the user or the agent states as so: a guess or a workaround. (A
  // decision quotes both sides' words, where "for now" scopes the choice rather than doubting it.)
  if ((lesson.lesson === "correction" || lesson.lesson === "fact") && GUESS.test(said)) doubts.push("hedged");
  if ((lesson.lesson === "correction" || lesson.lesson === "fact") && FOR_NOW.test(said)) doubts.push("for now");
  return { signals, doubts };
}

/**
 * Fewer independent signals than this leave an inferred lesson unproposed: a finder's pattern matched,
 * but nothing else in the session backs it. Statements in so many words are the user's own.
 */
export const MIN_SIGNALS = 2;
/** Each signal beyond the floor makes a lesson this much more confident, so the best-backed come first. */
const PER_SIGNAL = 0.02;

/** The lesson with its confidence weighed by what backs it, or null when too little does or something speaks against it. */
export function weigh(session: Session, lesson: Lesson, minSignals = MIN_SIGNALS): Lesson | null {
  if (lesson.lesson === "explicit") return lesson;
  const { signals, doubts } = supportOf(session, lesson);
  if (doubts.length || signals.length < minSignals) return null;
  return { ...lesson, confidence: Math.min(0.95, Math.round((lesson.confidence + PER_SIGNAL * (signals.length - MIN_SIGNALS)) * 100) / 100) };
}
