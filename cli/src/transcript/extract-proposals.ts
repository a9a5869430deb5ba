import type { LearningKind } from "../../../lib/rules";

/**
 * Learning candidates from what the user said explicitly ("always …", "never …", "prefer …",
 * "remember …"), with a confidence that says how explicit it was. Questions and quoted or pasted
 * material (code blocks, long lines) are not statements.
 */
export type Proposal = { kind: Extract<LearningKind, "pattern" | "insight">; content: string; confidence: number };

type Rule = { re: RegExp; kind: Proposal["kind"]; confidence: number };

const LEAD = String.raw`^(?:(?:ok|okay|also|and|but|so|please|note|fyi|btw|and please)[,:]?\s+)*`;
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

function sentences(text: string): string[] {
  const withoutCode = text.replace(/```[\s\S]*?```/g, "\n").replace(/`[^`\n]*`/g, (m) => m.replace(/[.!?]/g, ""));
  const out: string[] = [];
  for (const line of withoutCode.split(/\n+/)) {
    const clean = line.replace(/^\s*(?:[-*>]|\d+[.)])\s+/, "").trim();
    if (!clean) continue;
    for (const s of clean.split(/(?<=[.!?])\s+(?=[A-Z"'(])/)) if (s.trim()) out.push(s.trim());
  }
  return out;
}

function normalise(content: string): string {
  const trimmed = content.trim().replace(/\s+/g, " ").replace(/[\s,;:]+$/, "");
  const withStop = /[.!]$/.test(trimmed) ? trimmed : `${trimmed}.`;
  return withStop.charAt(0).toUpperCase() + withStop.slice(1);
}

/** Two statements that differ only in case, spacing and punctuation say the same thing. */
export function proposalKey(content: string): string {
  return content.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

export function extractProposals(userTexts: string[]): Proposal[] {
  const found = new Map<string, Proposal>();
  for (const text of userTexts) {
    for (const sentence of sentences(text)) {
      if (sentence.endsWith("?") || sentence.length < MIN || sentence.length > MAX) continue;
      for (const rule of RULES) {
        const match = rule.re.exec(sentence);
        if (!match?.[1] || match[1].trim().length < 8) continue;
        const content = normalise(match[1]);
        const key = proposalKey(content);
        const seen = found.get(key);
        // Said twice in one session: more likely meant.
        if (seen) seen.confidence = Math.min(0.9, Math.round((seen.confidence + 0.1) * 100) / 100);
        else found.set(key, { kind: rule.kind, content, confidence: rule.confidence });
        break;
      }
    }
  }
  return [...found.values()];
}
