import type { Session } from "../agents/session";
import type { Lesson } from "./lesson";
import { evidenceOf, type Line } from "./session-lines";
import { statement } from "./wording";

/**
 * Statements in so many words: the user saying "always …", "never …", "prefer …", "remember …" or
 * "from now on …", with a confidence that says how explicit it was. Questions and quoted or pasted
 * material (code blocks, long lines) are not statements.
 */

type Rule = { re: RegExp; kind: Lesson["kind"]; confidence: number };

const LEAD = String.raw`^(?:(?:ok|okay|oh|also|and|but|so|please|note|fyi|btw|and please)[,:]?\s+)*`;
const RULES: Rule[] = [
  { re: new RegExp(`${LEAD}(?:from now on,?\\s+)(.+)$`, "i"), kind: "pattern", confidence: 0.7 },
  { re: new RegExp(`${LEAD}(always\\s.+)$`, "i"), kind: "pattern", confidence: 0.7 },
  { re: new RegExp(`${LEAD}((?:never|don't ever|do not ever)\\s.+)$`, "i"), kind: "pattern", confidence: 0.7 },
  { re: new RegExp(`${LEAD}remember that\\s+(.+)$`, "i"), kind: "insight", confidence: 0.65 },
  { re: new RegExp(`${LEAD}remember(?: to)?\\s+(.+)$`, "i"), kind: "pattern", confidence: 0.65 },
  { re: new RegExp(`${LEAD}((?:i|we) (?:always|never|prefer)\\s.+)$`, "i"), kind: "pattern", confidence: 0.6 },
  { re: new RegExp(`${LEAD}(prefer\\s.+)$`, "i"), kind: "pattern", confidence: 0.6 },
  { re: new RegExp(`${LEAD}((?:you should|you must|we should|we must) (?:always|never)\\s.+)$`, "i"), kind: "pattern", confidence: 0.6 },
];

const MIN = 12;
const MAX = 300;

/** Two statements that differ only in case, spacing and punctuation say the same thing. */
export function proposalKey(content: string): string {
  return content.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

export function findExplicit(session: Session, lines: Line[]): Lesson[] {
  const found = new Map<string, Lesson>();
  for (const line of lines) {
    if (line.who !== "user") continue;
    for (const sentence of line.sentences) {
      if (sentence.endsWith("?") || sentence.length < MIN || sentence.length > MAX) continue;
      for (const rule of RULES) {
        const match = rule.re.exec(sentence);
        if (!match?.[1] || match[1].trim().length < 8) continue;
        const content = statement(match[1]);
        const key = proposalKey(content);
        const seen = found.get(key);
        // Said twice in one session: more likely meant.
        if (seen) {
          seen.confidence = Math.min(0.9, Math.round((seen.confidence + 0.1) * 100) / 100);
          seen.evidence = evidenceOf(session, [...seen.evidence.map((e) => e.turn), line.turn]);
        } else found.set(key, { kind: rule.kind, lesson: "explicit", content, confidence: rule.confidence, evidence: evidenceOf(session, [line.turn]) });
        break;
      }
    }
  }
  return [...found.values()];
}
