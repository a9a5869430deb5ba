import type { Session } from "../agents/session";
import { MAX_PROPOSALS_PER_SESSION } from "../../../lib/rules";
import { findCorrections } from "./find-corrections";
import { findExplicit, proposalKey } from "./find-explicit";
import { findResolvedFailures } from "./find-failures";
import { findDecisions, findFacts } from "./find-statements";
import type { Lesson } from "./lesson";
import { linesOf } from "./session-lines";

/**
 * The lessons a session taught, from its transcript alone (no model): statements in so many words,
 * corrections, failures a later step resolved, decisions with their reason, facts found out. Each with
 * its evidence. The same thing found twice (a correction that is also a statement) is proposed once,
 * as the more confident; at most MAX_PROPOSALS_PER_SESSION, the most confident first.
 */
export function extractLessons(session: Session): Lesson[] {
  const lines = linesOf(session);
  const all = [findExplicit, findCorrections, findResolvedFailures, findDecisions, findFacts].flatMap((find) => find(session, lines));
  const kept: Lesson[] = [];
  for (const lesson of all.sort((a, b) => b.confidence - a.confidence)) {
    if (kept.some((k) => sameLesson(k, lesson))) continue;
    kept.push(lesson);
  }
  return kept.slice(0, MAX_PROPOSALS_PER_SESSION);
}

/** Two candidates from the same lines, or worded nearly alike (most of the shorter one's words in the other). */
function sameLesson(a: Lesson, b: Lesson): boolean {
  const turns = new Set(a.evidence.map((e) => e.turn));
  if (b.evidence.some((e) => turns.has(e.turn) && e.who !== "tool")) return true;
  const wa = new Set(proposalKey(a.content).split(" "));
  const wb = proposalKey(b.content).split(" ");
  const shared = wb.filter((w) => wa.has(w)).length;
  return shared / Math.min(wa.size, wb.length) > 0.7;
}
