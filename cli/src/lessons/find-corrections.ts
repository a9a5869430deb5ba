import type { Session, SessionEvent } from "../agents/session";
import type { Lesson } from "./lesson";
import { cut } from "../../../lib/text/cut";
import { evidenceOf, lastIndex, type Line } from "./session-lines";
import { explicitAt } from "./find-explicit";
import { mainStep } from "./shell-runs";
import { offersChoice } from "./find-statements";
import { ACK, ASIDE, ASSENTS, GUESS, OFFERS_MORE, OPENS, ORDER_ONLY, QUESTION, specifics, statement } from "./wording";

/**
 * Corrections: the user contradicting or redirecting the agent after it did or said something ("No,
 * this repo uses pnpm", "that's the wrong bucket, staging is in eu-west-1", "don't edit the generated
 * client, run `make gen`"). The lesson is the user's sentence without its "no,".
 */

/**
 * A contrast anywhere in the turn: "X, not Y", "instead of", "we use", "should be", "don't … use …"; in
 * German, French, Spanish, Portuguese, Italian and Russian too ("…, nicht npm", "au lieu de", "en vez de").
 */
const CONTRAST =
  /(?:,\s*(?:not|no|nicht|pas|не)\s+\S|\b(?:an)?statt\b|\bau lieu de\b|\ben (?:vez|lugar) de\b|\bem vez de\b|\binvece di\b|(?:^|[\s,])вместо\s|\bnot\s+\S+(?:\s+\S+)?\s*[,;]?\s*(?:but|use)\b|\binstead(?:\s+of)?\b|\brather than\b|\b(?:we|this (?:repo|project|team|codebase)|here we)\s+(?:use|uses|run|runs|deploy|keep|don'?t|do not|never)\b|\bshould (?:be|use|go|live|point)\b|\bwe\s+\w+\s+(?:every|all|each)\b|\blike (?:the )?(?:others|rest)\b|\bwrong\s+(?:\w+\s+)?(?:bucket|branch|file|region|folder|directory|db|database|table|env|environment|version|port|account|cluster|namespace|service|one|place|command|package|module)\b|\b(?:don'?t|dont|do not|never)\s+(?:by hand\s+|hand[- ]?)?(?:edit|touch|use|run|change|modify|commit|push|call|add|install|import|bump|delete|put|set|hardcode|hard-code|pin|rename|move|mock|skip|disable|make|write|create|generate)\b)/i;

/** An opening "no" that belongs to what follows ("no new packages") stays: dropping it would say the opposite. */
const KEEPS_NO = /^(?:no|nope|nah)\s+$/i;
/** How a sentence after "no" starts when the "no" answers the agent ("no not under web", "no this repo uses pnpm"). */
const CLAUSE = /^(?:not|no|stop|don'?t|dont|this|that|it|its|it'?s|we|you|i|the|they|there|use)\b/i;
/** Rejecting the agent's idea without saying how things are ("nah, not that. check the bus"): what follows is an order. */
const NOT_THAT = /^not (?:that|this|it)\b[\s.,!—–-]*/i;
/** The user saying what the agent just touched does nothing: "that file does nothing", "that flag isn't read". */
const DISMISSES = /^(?:that|this|those|these) (?:\w+ )?(?:does nothing|do nothing|doesn'?t do anything|has no effect|(?:is|are)(?:n'?t| not) (?:used|read|loaded))\b/i;

/** The sentences that carry a correction, three at most: orders among them ("look at the log", "revert it") say what to do now, not how things are. */
function carrying(said: string[]): string[] {
  const stated = said.filter((s, k) => k === 0 || !ORDER_ONLY.test(s));
  return stated.slice(0, 3);
}

/** The user undoing what the agent just did ("revert that, we list sources explicitly"): the rest says how it is done. */
const REVERTS = /^(?:revert|undo|roll back|put back) (?:that|this|it)\b[\s,.;:—–-]*/i;

/** What the user had undone: the agent's sentence before it that names most specific things (`file(GLOB …)`). */
function undone(lines: Line[], k: number): string {
  const said = lines[lastIndex(lines, k, (l) => l.who === "assistant")];
  const best = said?.sentences.map((s) => ({ s, n: specifics(s).size })).sort((a, b) => b.n - a.n)[0];
  return best ? cut(best.s.replace(/[.\s]+$/, ""), 160) : "what was just done";
}

/** Words early in a sentence that point to the one before ("no // there", "then …"). */
const POINTS_BACK = /^(?:\S+\s+){0,3}?(?:there|then)\b/i;

/** The user challenging what the agent did: "why is there a .meta in the diff?", "why did you pin it?" */
const CHALLENGE = /^why (?:is|are|did|do|does|would|have)\b.*\?$/i;
/** Fewer words than this say too little to correct anything ("png is fine for now"). */
const MIN_WORDS = 6;
/** A sentence that says something is not so. */
const NEGATION = /\b(?:not|no|never|doesn'?t|doesnt|don'?t|dont|isn'?t|isnt|won'?t|wont|can'?t|cant|cannot)\b/i;

/** The user saying the command the agent just ran, and failed, is not how it is done here: "go test doesn't work in this repo". */
function deniesFailedRun(session: Session, line: Line, sentence: string): boolean {
  const last = session.events[line.turn - 1];
  if (last?.kind !== "tool" || last.failed !== true || !last.command) return false;
  const program = mainStep(last.command).split(/\s+/).slice(0, 2).join(" ").toLowerCase();
  return NEGATION.test(sentence) && sentence.toLowerCase().includes(program);
}

/** What the agent did or said before `turn`, since the user's last words: its text, commands, files and what its edits reported. */
function agentWork(session: Session, turn: number): string {
  const since = lastIndex(session.events, turn, (e) => e.kind === "user");
  return session.events
    .slice(since + 1, turn)
    .map((e) => workOf(e, false))
    .join("\n");
}

/** An event as agentWork reads it: the agent's text, a tool's command, files and (when `all`, or it edited) output. */
const workOf = (e: SessionEvent, all: boolean) => (e.kind === "assistant" ? e.text : e.kind === "tool" ? `${e.command ?? ""} ${e.files.map((f) => f.path).join(" ")} ${all || e.files.length ? (e.output ?? "") : ""}` : "");

/** The user's first words echo, as a question, something the agent used ("us-central1??"): a "no" in other words. */
function echoes(line: Line, saidBefore: SaidBefore): boolean {
  const first = line.sentences[0]?.match(/^([^\s?]+(?:\s+[^\s?]+)?)\?+$/)?.[1];
  // A value (a region, a version, a path), not a word any answer could echo ("really??").
  const value = !!first && (specifics(first).size > 0 || /\d/.test(first));
  return value && first.length >= 4 && saidBefore(line.turn, first.toLowerCase());
}

/** Whether the agent's work before `turn` (its text, every tool's command, files and output), lower-cased, holds `value`. */
type SaidBefore = (turn: number, value: string) => boolean;

/**
 * SaidBefore for a session, built once: its work as one lower-cased text (each event's, one a line), and
 * where each turn's starts. The work before a turn holds a value when the value's first place in the
 * whole ends before that turn starts. (Joining all that came before, for every user line, was quadratic.)
 */
function saidBeforeIn(session: Session): SaidBefore {
  let whole: string | null = null;
  const starts: number[] = [];
  const first = new Map<string, number>();
  return (turn, value) => {
    if (whole === null) {
      // (Lower-cased a part at a time: the line breaks between keep each part's case mapping its own.)
      const parts = session.events.map((e) => workOf(e, true).toLowerCase());
      whole = parts.join("\n");
      // starts[t]: the length of the first t parts joined.
      starts.push(0);
      parts.forEach((p, t) => starts.push(starts[t]! + (t > 0 ? 1 : 0) + p.length));
    }
    if (!first.has(value)) first.set(value, whole.indexOf(value));
    const at = first.get(value)!;
    return at >= 0 && at + value.length <= starts[Math.min(turn, starts.length - 1)]!;
  };
}

/** A limit on what the agent used: "is 0.10 only", "we still support 0.9". */
const LIMITS = /\bonly\b|\bstill\b/i;

/**
 * The user saying something the agent just did or said is not so, in the first words of the answer: a
 * sentence that denies or limits a name from the agent's work, a specific one (`vim.system`) or one the
 * agent wrote capitalised ("Nucleo"): "its not a nucleo, it's our carrier board", "vim.system is 0.10
 * only". Common words the two share ("an hour off in winter doesnt matter") name nothing.
 */
function denies(session: Session, line: Line, sentence: string): boolean {
  if (line.sentences.indexOf(sentence) > 1 || ACK.test(sentence) || (!NEGATION.test(sentence) && !LIMITS.test(sentence))) return false;
  const work = agentWork(session, line.turn);
  const names = new Set([...specifics(work), ...(work.match(/(?<=\w[^.!?\n]*\s)[A-Z][a-z]{3,}\w*/g) ?? []).map((w) => w.toLowerCase())]);
  return [...specifics(sentence), ...(sentence.toLowerCase().match(/[a-z]{4,}/g) ?? [])].some((w) => names.has(w));
}

export function findCorrections(session: Session, lines: Line[]): Lesson[] {
  const found: Lesson[] = [];
  const saidBefore = saidBeforeIn(session);
  const firstWork = session.events.findIndex((e) => e.kind !== "user");
  lines.forEach((line, k) => {
    if (line.who !== "user" || line.turn === 0) return;
    // Only after the agent did or said something: a first request corrects nothing.
    if (firstWork < 0 || firstWork >= line.turn) return;
    const reverts = REVERTS.test(line.text.trim());
    const opens = OPENS.test(line.text.trim()) || DISMISSES.test(line.text.trim()) || reverts || echoes(line, saidBefore);
    // Agreeing with what the agent proposed ("ok do that, …") corrects nothing; nor does acknowledging
    // its work before the next request ("ok add a docstring example like the others").
    // (An acknowledgement followed by "but …" takes something back, and may correct.)
    if (ASSENTS.test(line.text.trim()) || (!opens && ACK.test(line.text.trim()) && !/^\W*but\b/i.test(line.text.trim().replace(ACK, "")))) return;
    // Answering the agent's offer of a choice picks one (a decision), unless it opens with a "no".
    const asked = lines[k - 1];
    const answers = asked?.who === "assistant" && asked.turn === line.turn - 1;
    if (!opens && answers && offersChoice(asked)) return;
    // A "no" to the agent's offer to do more declines it ("no, ticket only says stage change"), unless it says how things are.
    if (answers && OFFERS_MORE.test(asked.sentences.at(-1) ?? "") && !CONTRAST.test(line.text)) return;
    // A statement in so many words in the same turn is findExplicit's: the correction is what comes before it.
    // What follows it is its reason, not more of the correction.
    const explicit = line.sentences.findIndex((s) => explicitAt(s) >= 0);
    const said = (explicit < 0 ? line.sentences : line.sentences.slice(0, explicit + 1))
      .map((s) => (explicitAt(s) >= 0 ? s.slice(0, explicitAt(s)).replace(/[\s,;:—–-]*(?:and|so|also)?\s*$/i, "") : s))
      // An aside ("btw …") states a fact in passing; it corrects nothing the agent did.
      .filter((s) => s && !QUESTION.test(s) && !GUESS.test(s) && !ASIDE.test(s));
    if (!said.length) return;
    const contrasts = (s: string) => CONTRAST.test(s) || deniesFailedRun(session, line, s) || denies(session, line, s);
    const joined = said.join(" ");
    if (!opens && !said.some(contrasts)) return;
    // The sentences that carry the correction: from the first with a contrast (or the opening), three at most.
    const from = Math.max(0, said.findIndex(contrasts));
    // A contrast that points back ("no // there") needs the sentence it points to.
    const start = opens ? 0 : from > 0 && POINTS_BACK.test(said[from]!) ? from - 1 : from;
    // A "why did you …?" just before names what "don't make those" is about: the challenge is part of the correction.
    const asks = line.sentences[line.sentences.indexOf(said[start]!) - 1];
    const challenge = asks && CHALLENGE.test(asks) ? `${asks} ` : "";
    let content = cut(challenge + carrying(said.slice(start)).join(" ").replace(OPENS, (m, _at: number, all: string) => (KEEPS_NO.test(m) && !CLAUSE.test(all.slice(m.length)) ? m : "")).replace(/^(?:stop|no|wait)[.,!]\s*/i, "").replace(NOT_THAT, "").replace(REVERTS, ""), 320);
    if (ORDER_ONLY.test(content) && !CONTRAST.test(content)) return;
    content = statement(reverts ? `${content.replace(/[.\s]+$/, "")} (instead of: ${undone(lines, k)})` : content);
    if (content.replace(OPENS, "").split(/\s+/).length < MIN_WORDS) return;
    found.push({ kind: "pattern", lesson: "correction", content, confidence: opens && CONTRAST.test(joined) ? 0.75 : 0.6, evidence: evidenceOf(session, [prevAgentTurn(session, line.turn), line.turn].filter((t) => t >= 0)) });
  });
  return found;
}

/** The agent's event the user answered: the last one before `turn`. */
function prevAgentTurn(session: Session, turn: number): number {
  for (let i = turn - 1; i >= 0; i--) if (session.events[i]!.kind !== "user") return i;
  return -1;
}
