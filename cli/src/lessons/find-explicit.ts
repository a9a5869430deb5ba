import type { Session } from "../agents/session";
import { proposalKey, type Lesson } from "./lesson";
import { evidenceOf, type Line } from "./session-lines";
import { GUESS, statement } from "./wording";

/**
 * Statements in so many words: the user saying "always …", "never …", "prefer …", "remember …" or
 * "from now on …", with a confidence that says how explicit it was. Questions and quoted or pasted
 * material (code blocks, long lines) are not statements.
 */

type Rule = { re: RegExp; kind: Lesson["kind"]; confidence: number };

/**
 * The same in the languages teams write in besides English: "remember" and "from now on" with what
 * follows them, and a sentence opened by "always" or "never" ("Merk dir: wir verwenden immer pnpm",
 * "覚えておいて：デプロイは必ず火曜日", "Запомни: всегда запускай миграции"). Not the words that also mean
 * "still" ("immer noch", "toujours pas") or that open a complaint as often as a rule.
 */
const OTHER_LANGUAGES: Rule[] = [
  {
    re: /^(?:merk dir|denk daran|n'oublie pas|n’oublie pas|retiens|souviens-toi|recuerda|acuérdate|lembre-se|lembra|ricorda(?:ti)?|onthoud|запомни|помни|覚えておいて|覚えといて|记住|記住|기억해(?:\s*줘)?)(?:\s*(?:dass|que|de|di|che|что))?[\s,:：、，]+(.+)$/iu,
    kind: "pattern",
    confidence: 0.65,
  },
  {
    re: /^(?:ab jetzt|von nun an|ab sofort|à partir de maintenant|désormais|a partir de ahora|de ahora en adelante|a partir de agora|de agora em diante|d'ora in poi|da ora in poi|vanaf nu|отныне|с этого момента|今後は?|これからは|从现在开始|從現在開始|앞으로는?)[\s,:：、，]+(.+)$/iu,
    kind: "pattern",
    confidence: 0.7,
  },
  { re: /^((?:immer(?! noch)|niemals|nie wieder|toujours(?! pas)|ne jamais|siempre|nunca|altijd|nooit|всегда|никогда не)\s.+)$/iu, kind: "pattern", confidence: 0.7 },
];

const LEAD = String.raw`^(?:(?:ok|okay|oh|also|and|but|so|please|note|fyi|btw|and please)[,:]?\s+)*`;
const RULES: Rule[] = [
  // "from now on" says it anywhere in a sentence ("…, and from now on new plugins go in plugins/").
  // A colon after the phrase is how people type it too ("from now on: …", "remember: …").
  { re: /(?:^|[\s,;:—–-])from now on[,:]?\s+(.+)$/i, kind: "pattern", confidence: 0.7 },
  { re: new RegExp(`${LEAD}(always\\s.+)$`, "i"), kind: "pattern", confidence: 0.7 },
  { re: new RegExp(`${LEAD}((?:never|don't ever|do not ever)\\s.+)$`, "i"), kind: "pattern", confidence: 0.7 },
  // "remember" opens a clause after a dash or semicolon too ("VERSION still says 1.3.0 — remember to bump it …").
  { re: new RegExp(`(?:${LEAD}|[—–;]\\s*)remember that\\s+(.+)$`, "i"), kind: "insight", confidence: 0.65 },
  { re: new RegExp(`(?:${LEAD}|[—–;]\\s*)remember to\\s+(.+)$`, "i"), kind: "pattern", confidence: 0.65 },
  { re: new RegExp(`${LEAD}remember[:,]?\\s+(.+)$`, "i"), kind: "pattern", confidence: 0.65 },
  { re: new RegExp(`${LEAD}((?:i|we) (?:always|never|prefer)\\s.+)$`, "i"), kind: "pattern", confidence: 0.6 },
  { re: new RegExp(`${LEAD}(prefer\\s.+)$`, "i"), kind: "pattern", confidence: 0.6 },
  { re: new RegExp(`${LEAD}((?:you should|you must|we should|we must) (?:always|never)\\s.+)$`, "i"), kind: "pattern", confidence: 0.6 },
  ...OTHER_LANGUAGES,
];

const MIN = 12;
const MAX = 300;
/** A sentence that gives a reason: said right after a rule, it is the rule's why. */
const REASON = /\b(?:because|since|otherwise|or else|so that|that'?s why|which is why|bc|cuz)\b/i;
/** A prohibition said just before the rule belongs to it: "don't hand-edit BUILD files. always run gazelle". */
const PROHIBITION = /^(?:don'?t|dont|do not|never)\b/i;

/** Where a statement in so many words starts in `sentence` (-1: none): a finder that reads the same line leaves it to this one. */
export function explicitAt(sentence: string): number {
  if (sentence.endsWith("?")) return -1;
  for (const rule of RULES) {
    const match = rule.re.exec(sentence);
    if (match?.[1] && match[1].trim().length >= 8) return match.index + (match[0].length - match[0].trimStart().length);
  }
  return -1;
}

export function findExplicit(session: Session, lines: Line[]): Lesson[] {
  const found = new Map<string, Lesson>();
  for (const line of lines) {
    if (line.who !== "user") continue;
    // Sentences already said as part of the one before.
    const joined = new Set<number>();
    line.sentences.forEach((sentence, k) => {
      if (sentence.endsWith("?") || sentence.length < MIN || sentence.length > MAX) return;
      for (const rule of RULES) {
        const match = rule.re.exec(sentence);
        if (!match?.[1] || match[1].trim().length < 8) continue;
        if (joined.has(k)) break;
        const before = line.sentences[k - 1];
        const after = line.sentences[k + 1];
        // What to do instead, said right after a prohibition ("never touch an applied file. from now on: a new
        // one"), completes it; so does the reason said right after a rule ("… CI fails otherwise").
        const insteadAfter = after && PROHIBITION.test(match[1]) && explicitAt(after) >= 0 && !PROHIBITION.test(after.slice(explicitAt(after)).replace(/^from now on[,:]?\s+/i, ""));
        const reasonAfter = after && explicitAt(after) < 0 && !after.endsWith("?") && REASON.test(after) && !GUESS.test(after);
        if (insteadAfter) joined.add(k + 1);
        const added = insteadAfter ? after.slice(explicitAt(after)).replace(/^from now on[,:]?\s+/i, "") : reasonAfter ? after : "";
        const next = added ? ` ${added.charAt(0).toUpperCase()}${added.slice(1)}` : "";
        const content = statement((before && PROHIBITION.test(before) && explicitAt(before) < 0 ? `${before} ${match[1]}` : match[1]) + next);
        const key = proposalKey(content);
        const seen = found.get(key);
        // Said twice in one session: more likely meant.
        if (seen) {
          seen.confidence = Math.min(0.9, Math.round((seen.confidence + 0.1) * 100) / 100);
          seen.evidence = evidenceOf(session, [...seen.evidence.map((e) => e.turn), line.turn]);
        } else found.set(key, { kind: rule.kind, lesson: "explicit", content, confidence: rule.confidence, evidence: evidenceOf(session, [line.turn]) });
        break;
      }
    });
  }
  return [...found.values()];
}
