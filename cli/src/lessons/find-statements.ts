import type { Session } from "../agents/session";
import type { Lesson } from "./lesson";
import { evidenceOf, type Line } from "./session-lines";
import { GUESS, QUESTION, statement } from "./wording";

/**
 * Decisions with their reason ("an outbox table rather than publishing from the handler, because …")
 * and stated facts ("CI runs with TZ=UTC; that is why the date test failed only locally"), from what the
 * user or the agent said. Guesses and questions are neither.
 */

const CHOICE =
  /\b(?:let'?s (?:go with|use|keep|stick with|do|switch to|move to)|we'?ll (?:go with|use|keep|stick with)|i'?ll (?:go with|use)|going with|decided|decision|settled on|stick with|chose|opted|rather than|instead of|over (?:the )?\w+ because|prefer(?:red)? \S+ (?:over|to))\b/i;
const REASON = /\b(?:because|since|so that|so we|so it|to avoid|which means|otherwise|as it|as they|as we|given that|that way)\b/i;

const FACT =
  /\b(?:turns out|it turns out|apparently|fyi|heads up|note that|for the record|the reason (?:is|was)|that'?s why|is why|(?:is|are) (?:only )?(?:set|configured|pinned|hardcoded|hard-coded|deployed|hosted|running|mounted|generated|vendored|read-only|readonly) |runs? (?:with|on|in|under|as) |lives? (?:in|under) |(?:is|are) (?:in|on) (?:the )?[\w./-]+-\w|only (?:works|runs|exists)|(?:doesn'?t|does not|won'?t|cannot|can'?t) (?:support|handle|run|work)|is shared (?:with|by)|is owned by|uses? (?:a|an|the)? ?\w+ (?:under the hood|internally))/i;

export function findDecisions(session: Session, lines: Line[]): Lesson[] {
  const found: Lesson[] = [];
  for (const line of lines) {
    line.sentences.forEach((s, k) => {
      if (!CHOICE.test(s) || QUESTION.test(s) || GUESS.test(s)) return;
      const next = line.sentences[k + 1];
      const withReason = REASON.test(s) ? s : next && REASON.test(next) ? `${s} ${next}` : null;
      if (!withReason) return;
      found.push({ kind: "insight", lesson: "decision", content: statement(withReason), confidence: line.who === "user" ? 0.65 : 0.55, evidence: evidenceOf(session, [line.turn]) });
    });
  }
  return found;
}

export function findFacts(session: Session, lines: Line[]): Lesson[] {
  const found: Lesson[] = [];
  for (const line of lines) {
    for (const s of line.sentences) {
      if (!FACT.test(s) || QUESTION.test(s) || GUESS.test(s) || CHOICE.test(s)) continue;
      if (s.split(/\s+/).length < 5) continue;
      found.push({ kind: "insight", lesson: "fact", content: statement(s), confidence: line.who === "user" ? 0.6 : 0.5, evidence: evidenceOf(session, [line.turn]) });
    }
  }
  return found;
}
