import type { Session } from "../agents/session";
import { explicitAt } from "./find-explicit";
import type { Lesson } from "./lesson";
import { cut } from "../../../lib/text/cut";
import { evidenceOf, firstAfter, retracted, standing, type Line } from "./session-lines";
import { weigh } from "./support";

import { ACK, ASIDE, ASSENTS, GUESS, OWN_DOING, PLAN, QUESTION, specifics, statement } from "./wording";

/**
 * Decisions with their reason ("an outbox table rather than publishing from the handler, because …")
 * and stated facts ("CI runs with TZ=UTC; that is why the date test failed only locally"), from what the
 * user or the agent said. Guesses and questions are neither.
 */

const CHOICE =
  /\b(?:let'?s (?:go with|use|keep|stick with|do|switch to|move to)|we'?ll (?:go with|use|keep|stick with)|i'?ll (?:go with|use)|going with|decided|decision|settled on|stick with|chose|opted|rather than|instead of|over (?:the )?\w+ because|prefer(?:red)? \S+ (?:over|to))\b/i;
const REASON = /\b(?:because|since|so that|so we|so it|to avoid|which means|otherwise|as it|as they|as we|given that|that way)\b/i;

const FACT =
  /\b(?:turns out|it turns out|apparently|fyi|btw|by the way|heads up|note that|for the record|the reason (?:is|was)|that'?s why|is why|(?:is|are) (?:only )?(?:set|configured|pinned|hardcoded|hard-coded|deployed|hosted|running|mounted|generated|vendored|read-only|readonly) |(?<![-\w])runs? (?:with|on|in|under|as) |lives? (?:in|under) |(?:is|are) (?:in|on) (?:the )?[\w./-]+-\w|only (?:works|runs|exists)|(?:doesn'?t|does not|won'?t|cannot|can'?t) (?:support|handle|run|work)|is shared (?:with|by)|is owned by|uses? (?:a|an|the)? ?\w+ (?:under the hood|internally))/i;

/** The agent laying out choices for the user in its prose: "Options: (a) … (b) …", "I could … or …", "I can …, but …", "I'd suggest …". */
const OFFERS = /\b(?:options?:|i can\b[^.]*\bbut\b|alternatives?:?|alternatively|either\b[^.]*\bor\b|i could\b[^.]*\bor\b|we could\b|i'?d (?:suggest|go with|go|recommend|rather|use|pick|prefer|keep)|how do you want|which (?:one|do you (?:want|prefer))|which (?:\w+ ){1,2}(?:do|would) you (?:want|prefer|like)|do you want (?:me to )?\w+[^.]*\bor\b|or (?:do it|keep|use|switch)|\((?:a|b|1|2|3)\)|(?:^|\s)[1-3]\))/i;
/** A list of choices, one a line: "1. …", "2. …" or "(a) …", "b) …". */
const LISTED = /^\s*\(?([a-c1-4])[.)]\s+(.+)$/gim;
/** A list is a choice when the agent calls it one ("Two ways:", "options"), not when it lists its steps. */
const CHOICES = /\b(?:ways?|options?|approach(?:es)?|alternatives?|choices?)\b/i;
/** The agent asks which of two: "Should these be PlayMode tests or EditMode?" */
const WHICH_OF = /\bor\b[^?]*\?\s*$/i;

/**
 * The agent offers the user a choice: in its words (OFFERS, read without inline code, whose dots
 * and brackets are not prose), as a list of two or more it calls choices, or by asking which of two.
 */
export function offersChoice(line: Line): boolean {
  const prose = line.text.replace(/```[\s\S]*?```/g, " ").replace(/`[^`\n]*`/g, "code");
  return OFFERS.test(prose) || ([...line.text.matchAll(LISTED)].length >= 2 && CHOICES.test(prose)) || line.sentences.some((s) => QUESTION.test(s) && WHICH_OF.test(s));
}

/** The user confirming how things are done: "keep it that way", "stick with that". */
const CONFIRMS = /\b(?:keep (?:it|that|them|doing it) (?:that way|like that|as (?:is|it is))|stick with (?:that|it|this)|that'?s (?:the convention|how we do it))\b/i;
/** The user's answer picks one: a yes, or the words of one of the choices. */
const PICK = /^\s*(?:yes|yep|yeah|yup|ok(?:ay)?|sure|sounds good|makes sense|agreed|go (?:with|for)|let'?s|do (?:it|that|the)|use|option|\(?[a-c1-3]\)?(?:\s|[.,:]|$))/i;
/** A plain yes: it answers whatever the agent said last. */
const YES = /^\s*(?:yes|yep|yeah|yup|sure|sounds good|agreed)\b/i;
const STOP_WORDS = new Set("the a an and or but to of in on for with that this it its is are be we you i so not no yes ok just then do use keep go".split(" "));
const contentWords = (s: string) => new Set(s.toLowerCase().match(/[a-z0-9_./~>=-]{2,}/g)?.map((w) => w.replace(/[./]+$/, "")).filter((w) => w.length >= 2 && !STOP_WORDS.has(w)) ?? []);
/**
 * How many of `said`'s words the offer's `sentence` names too, however each spells it: a part of a
 * compound name ("sendrecv" in `MPI_Sendrecv`) or the same stem ("overlap", "overlaps") counts.
 */
function sharedWords(sentence: string, said: Set<string>): number {
  const parts = new Set([...contentWords(sentence)].flatMap((w) => [w, ...w.split(/[_./:-]+/).filter((p) => p.length >= 4)]));
  const stem = (w: string) => (w.length >= 6 ? w.slice(0, 5) : w);
  const stems = new Set([...parts].map(stem));
  return [...said].filter((w) => parts.has(w) || (w.length >= 5 && stems.has(stem(w)))).length;
}

/**
 * The choice the user made among the agent's offers, with what the agent said of it: the offer's
 * sentence (by the option number the user names, else the one sharing most words with the answer, else
 * the agent's own suggestion) and the user's words (which often carry the reason).
 */
function chosen(offer: Line, answer: Line, confirms: boolean): { text: string } | null {
  const picked = answer.text.match(/^\s*\(?([a-c1-3])\)?(?=[\s.,:]|$)/i)?.[1];
  let option: string | null = null;
  if (picked) option = [...offer.text.matchAll(LISTED)].find((m) => m[1]!.toLowerCase() === picked.toLowerCase())?.[2]?.trim() ?? null;
  if (picked && !option) {
    const m = offer.text.match(new RegExp(`\\(?${picked}\\)\\s*([^;\\n]+?)(?=\\s*(?:;|\\n|\\(?[a-c1-4]\\)\\s|$))`, "i"));
    option = m?.[1]?.trim() ?? null;
  }
  if (!option) {
    const said = contentWords(answer.text);
    const ranked = offer.sentences
      .map((s) => ({ s, shared: sharedWords(s, said), suggests: SUGGESTED.test(s) }))
      .sort((a, b) => b.shared - a.shared || Number(b.suggests) - Number(a.suggests));
    const best = ranked[0];
    // "ok go with that" takes what the agent recommended, whatever other words the answer shares with its offer.
    const recommended = REFERS_BACK.test(answer.text) ? offer.sentences.find((s) => RECOMMENDS.test(s)) : undefined;
    if (recommended) option = recommended;
    else if (best && (best.shared > 0 || best.suggests)) option = best.s;
    // Confirming a way of working: the agent's two sentences that describe it.
    const second = ranked[1];
    if (confirms && best && second && second.shared > 0) option = offer.sentences.filter((s) => s === best.s || s === second.s).join(" ");
  }
  if (!option) return null;
  const reply = answer.sentences.filter((s) => !QUESTION.test(s)).slice(0, 3).join(" ");
  return { text: `${statement(option).replace(/\.$/, "")} (chosen: "${reply.replace(/\s+/g, " ").trim()}")` };
}

/** A sentence of the offer that suggests one way. */
const SUGGESTED = /\b(?:i'?d|suggest|recommend|alternative|or do it|option)\b/i;
/** The agent's own recommendation among its choices: "I'd go with …", "I'd use …", "I recommend …". */
const RECOMMENDS = /\bi'?d (?:go with|use|pick|suggest|recommend|prefer|rather)\b|\bi (?:suggest|recommend)\b/i;
/** An answer that takes the agent's recommendation by pointing back at it: "ok go with that", "yes, that one". */
const REFERS_BACK = /^\s*(?:(?:yes|yep|yeah|ok(?:ay)?|sure|fine)[,.!]?\s+)?(?:go with|do|take|use)\s+(?:that|it|this|yours)\b|^\s*(?:yes|yep|yeah|ok(?:ay)?|sure)[,.!]?\s+(?:that|this) one\b/i;

/** The user objecting to what the agent proposed, with a reason ("relative is handy but …"), not asking. */
function pushback(line: Line | undefined): boolean {
  return line?.who === "user" && !QUESTION.test(line.text.trim()) && (/\bbut\b/i.test(line.text) || REASON.test(line.text));
}

/** The user's next words after the agent's `line` approve it: a yes, before saying anything else. */
function approved(lines: Line[], line: Line): boolean {
  const answer = lines[firstAfter(lines, line.turn)];
  return answer?.who === "user" && (YES.test(answer.text) || ASSENTS.test(answer.text.trim()));
}

export function findDecisions(session: Session, lines: Line[]): Lesson[] {
  const found: Lesson[] = [];
  lines.forEach((answer, k) => {
    if (answer.who !== "user" || k === 0 || QUESTION.test(answer.text.trim().split("\n")[0]!)) return;
    // The agent's offer: its last words, or the ones before a question the user asked about it.
    const said = lines.slice(Math.max(0, k - 3), k).filter((l) => l.who === "assistant");
    const confirms = CONFIRMS.test(answer.text);
    // An offer is open until the user answers it: only questions about it may come between.
    // (Found from k back: `l` is one of the three lines before it.)
    const open = (l: Line) => lines.slice(lines.lastIndexOf(l, k - 1) + 1, k).every((x) => x.who === "assistant" || QUESTION.test(x.text.trim()));
    const offered = [...said].reverse().find((l) => offersChoice(l) && open(l));
    // A yes answers the agent's last words: in a back-and-forth over choices, its latest proposal; after
    // the user pushed back on a proposal with a reason, the agent's revised one.
    const yes = YES.test(answer.text);
    const pushedBack = yes && lines[k - 1]?.who === "assistant" && pushback(lines[k - 2]) && lines[k - 3]?.who === "assistant";
    // Agreeing to the agent's plan with a reason of one's own ("ok do that, one cache mechanism per thing") settles it too.
    const agrees = ASSENTS.test(answer.text.trim()) && lines[k - 1]?.who === "assistant";
    const offer = (offered || pushedBack) && yes ? said.at(-1) : (offered ?? (confirms || agrees ? said.at(-1) : undefined));
    if (!offer) return;
    // Only an answer that picks: a yes or one of the choices' words, before the agent acts on it.
    const words = contentWords(answer.text);
    const sharesOffer = sharedWords(offer.text, new Set([...words].filter((w) => w.length > 3))) > 0;
    if (!PICK.test(answer.text) && !sharesOffer) return;
    const choice = chosen(offer, answer, confirms);
    const turns = pushedBack ? [lines[k - 3]!.turn, lines[k - 2]!.turn, offer.turn, answer.turn] : [offer.turn, answer.turn];
    if (choice) found.push({ kind: "insight", lesson: "decision", content: cut(choice.text, 500), confidence: 0.62, evidence: evidenceOf(session, turns) });
  });
  for (const line of lines) {
    // The agent's choice the user then denies (or it takes back) was not settled; nor is one the user
    // never answered: the agent announcing its own choice is its plan until the other side approves it.
    if (retracted(lines, line)) continue;
    if (line.who === "assistant" && !approved(lines, line)) continue;
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

/** Something that happened once ("last time we …", "yesterday"): a story, not how things are. */
const STORY = /\b(?:last time|yesterday|the other day|last (?:week|month|year)|earlier today)\b/i;
/** The agent restating a library's documentation for the user ("For reference: …", "Quick background: …"): true anywhere, not about this code. */
const BACKGROUND = /^(?:quick |some |a bit of )?(?:background|for reference|for context|as a reminder|recap)\b[^:]{0,20}:/i;
/** A state the session is about to change ("it isn't managed by Terraform yet"): stale once the work is done. */
const TRANSIENT = /\b(?:yet|for now|at the moment|currently|right now|so far)\b/i;
/** A sentence saying what that requires ("The tests have to go through xcodebuild …"): a finding's consequence. */
const REQUIRES = /\b(?:has to|have to|must|needs? to|only works)\b/i;

/** How a finding reads: it explains ("that's why", "so …") or sets two things apart ("only", "but", "not"). */
const FINDING = /\b(?:that'?s (?:why|it|the)|there it is|so (?:the|a|every|it|they|nobody)|hence|only|which (?:only|means|is why)|same as|by default|because|the (?:real )?(?:reason|cause) (?:is|was))\b|,\s+so\b|,\s+not\s+(?!\w+ed\b)\w/i;
/** A consequence the agent draws for its own next step ("so the handler can reuse it", "so no change is needed"): a plan, not how things are. */
const SUGGESTS = /\bso\b(?:\s+[\w`().-]+){0,5}?\s+(?:can|could|should|would|might)\b|\bso (?:no|nothing)\b[^.]*\b(?:needed|necessary|to \w+)\b/i;
/** The agent reporting its own work or a run's result: news of the session, not a fact about the code. */
const REPORT = /^(?:added|changed|updated|fixed|removed|created|renamed|moved|wrote|ran|reverted|replaced|deleted|implemented|refactored|switched|installed|bumped|staged|committed|pushed|merged|tagged|opened|(?:the )?(?:plan|build|tests?|ci|run|everything|all \w+|it)\b.{0,30}\b(?:shows?|pass(?:es|ed)?|green|succeed(?:s|ed)?|works?|is clean|compiles?))\b/i;
/** The agent says what it will do, anywhere in the sentence. */
const INTENT = /\b(?:i'?ll|i will|i'?m going to|let me|i can|i'?d)\b/i;

/** How a request starts: a verb telling the agent what to do ("make it …", "put it in …", "dont …"). */
const IMPERATIVE = /^(?:(?:and|also|then|just|please|pls|so|actually|but|ok(?:ay)?)[,.]?\s+)*(?:make|put|add|use|run|do|don'?t|dont|keep|write|move|set|change|fix|remove|delete|check|try|commit|push|bump|leave|go|call|create|open|show|give|let|revert|undo|rename|update|install|test|build|deploy|read|start|stop|wait|look|see|drop|skip|mark|pass|send|split|merge|pin|ask|tell|note|log)\b/i;
/** A clause saying how things are: a subject's finite verb. */
const STATES = /\b(?:is|are|isn'?t|aren'?t|was|has|have|hasn'?t|haven'?t|runs?|goes|lives?|uses?|comes?|gets?|reads?|points?|listens?|expects?|requires?|needs?|supports?|says|ships?|holds?)\b/i;
/** Why or what follows: the part that makes a statement knowledge rather than narration. */
const BECAUSE = /\b(?:because|since|so|otherwise|anyway|which|that'?s why|only|never|regardless)\b|,\s*not\b/i;
/** The leading acknowledgement or aside of a message ("nice. before I push — "): not part of what it states. */
const LEADIN = /^(?:[^—–]{0,24}\s[—–]\s+)/;

/**
 * A user's statement, said in passing after the request or the acknowledgement, of how things are here,
 * with its why and something it names ("prod goes through the deploy workflow anyway, our personal
 * accounts only have viewer on acme-prod so a local `pulumi up` would fail with 403"): not a request,
 * not a question. The statement, or null.
 */
function explains(sentence: string): string | null {
  const s = sentence.replace(LEADIN, "");
  if (IMPERATIVE.test(s) || ACK.test(s) || explicitAt(s) >= 0 || !STATES.test(s) || !BECAUSE.test(s) || s.split(/\s+/).length < 8) return null;
  return specifics(s).size > 0 || /`[^`]+`|\d/.test(s) ? s : null;
}

/**
 * Facts: what the user states about the code or the environment (FACT's words), and what the agent
 * found out from a tool's output and says in a sentence that names the output's specific words (a
 * setting, a port, a path: "the service listens on :9090 (GRPC_ADDR in .env.local); 50051 is only
 * envoy's"). Plans, guesses and questions are not facts.
 */
export function findFacts(session: Session, lines: Line[]): Lesson[] {
  const found: Lesson[] = [];
  const findings: Lesson[] = [];
  for (const line of lines) {
    if (line.who === "user") {
      for (const s of line.sentences) {
        // A first request says what to do; only its asides state facts.
        if (line.turn === 0 && !ASIDE.test(s)) continue;
        if (STORY.test(s) || TRANSIENT.test(s) || QUESTION.test(s) || GUESS.test(s) || PLAN.test(s) || CHOICE.test(s) || s.split(/\s+/).length < 5) continue;
        const told = FACT.test(s) ? s : explains(s);
        if (told) found.push({ kind: "insight", lesson: "fact", content: statement(told), confidence: told === s && FACT.test(s) ? 0.6 : 0.55, evidence: evidenceOf(session, [line.turn]) });
      }
      continue;
    }
    // What the tools since the last thing said printed; a claim the agent's next words take back is no finding.
    if (line.turn === 0 || retracted(lines, line)) continue;
    // (Walked back from the line to the first event that is not a tool's: a session of thousands of
    // events made every line copy and test all before it, minutes of a worker's time.)
    const outputs: string[] = [];
    for (let k = line.turn - 1; k >= 0; k--) {
      const e = session.events[k]!;
      if (e.kind !== "tool") break;
      outputs.push(`${e.command ?? ""}\n${e.output ?? ""}`);
    }
    if (!outputs.length) continue;
    const printed = outputs.join("\n").toLowerCase();
    const best = standing(line)
      .filter((s) => !QUESTION.test(s) && !GUESS.test(s) && !PLAN.test(s) && !REPORT.test(s) && !INTENT.test(s) && !SUGGESTS.test(s) && !OWN_DOING.test(s) && !BACKGROUND.test(s) && !TRANSIENT.test(s) && s.split(/\s+/).length >= 6)
      .map((s) => ({ s, shared: [...specifics(s)].filter((w) => printed.includes(w)).length, finding: FINDING.test(s) }))
      .filter((c) => c.shared >= 1 && c.finding)
      .sort((a, b) => b.shared - a.shared)[0];
    const sentences = standing(line);
    const next = best && sentences[sentences.indexOf(best.s) + 1];
    const withNext = best && next && REQUIRES.test(next) && !PLAN.test(next) && !QUESTION.test(next) ? `${best.s} ${next}` : best?.s;
    if (best) findings.push({ kind: "insight", lesson: "fact", content: statement(cut(withNext!, 400)), confidence: Math.min(0.6, 0.45 + 0.05 * best.shared), evidence: evidenceOf(session, [line.turn - 1, line.turn]) });
  }
  // Of what the agent found out, the one most tied to what the tools showed and best backed: a session explains many things on its way.
  // (Weighed here only to choose: extractLessons weighs every finder's lessons alike.)
  const top = findings
    .map((f) => ({ f, weighed: weigh(session, f) }))
    .filter((c) => c.weighed)
    .sort((a, b) => b.weighed!.confidence - a.weighed!.confidence)[0]?.f;
  return top ? [...found, top] : found;
}
