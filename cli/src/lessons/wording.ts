/** Words that mark what the finders must not take as settled, and what makes a sentence specific. Shared by every finder. */

/** A question, not a statement. */
export const QUESTION = /\?\s*$|^(?:what|why|how|where|when|which|who|can|could|would|should|is|are|do|does|did|will|shall)\b[^.!]*$/i;
/** A guess: true or not, it is not yet a lesson. */
export const GUESS = /\b(?:i think|i guess|i suspect|i believe|probably|maybe|perhaps|might (?:be|have|not)\b|may be|could be|possibly|likely|my guess|not sure|seems? (?:like|to be)|looks like it might|hypothes|i assume|presumably)/i;
/** The agent saying what it will do next, or summing up what it did at the end ("Summary: …", "Done: …"): a plan or a report, not a finding. */
export const PLAN = /^(?:i'?ll|i will|i'?m going to|let me|let'?s|running|checking|trying|now |next,? |first,? |looking|reading|adding|fixing|updating|re-?running|pushing|committing|done\b|ok\b|okay\b|sure\b|summary\b|in summary\b|to sum up\b|all set\b|here'?s what\b)/i;

/** How a correcting turn opens: "no, …", "wrong", "actually …". */
export const OPENS =
  /^(?:no\b|nope\b|nah\b|hm+,? no\b|not quite\b|wrong\b|that'?s (?:wrong|not (?:right|it|how|what))|that is (?:wrong|not)|actually\b|wait\b|hold on\b|stop\b|careful\b|incorrect\b|nein\b|falsch\b|non(?=[,.!:;])|faux\b|incorrecto\b|нет(?=[\s,.:;!—–-])|неправильно(?=[\s,.:;!—–-]))[\s,.:;!—–-]*/i;
/** A user's aside, said in passing inside a longer message ("results go to $SCRATCH btw, …"): it states how things are, even in the first request. */
export const ASIDE = /^(?:\w+[,.!]?\s+)?(?:btw|by the way|fyi|heads up|note that)\b|[,;]?\s(?:btw|fyi)\b/i;
/** The user acknowledging what the agent did before asking for the next thing ("ok add …", "good. commit it"). */
export const ACK = /^(?:ok(?:ay)?|good|great|nice|cool|perfect|thanks|thank you|lgtm|looks good)\b[,.!]?\s*/i;
/** The agent ending on a yes-or-no offer to do more ("Do you want it there too?", "Want me to …?"): a "no" declines it. */
export const OFFERS_MORE = /^(?:do you want|want me to|should i|shall i|would you like|do you need)\b[^?]*\?$/i;

/** One-off orders say what to do now, not how things are. */
export const ORDER_ONLY = /^(?:now\s+|then\s+|ok(?:ay)?,?\s+|just\s+|please\s+)?(?:run|commit|push|try|show|open|check|rerun|re-run|continue|look|go ahead|do it|fix it|undo|revert|stop)\b/i;

/** The user agreeing with what the agent proposed: "ok do that, …", "yes go ahead". */
export const ASSENTS = /^(?:ok(?:ay)?[,.]?\s+(?:do (?:that|it)|go ahead|go for it|sounds good)|(?:yes|yep|yeah|sure|agreed|sounds good|go ahead)\b[,.!]?\s+(?:do (?:that|it)|go ahead|please)\b)/i;

/** The user denying what the agent just said: "no, …", "wrong", "hm? …". */
export const DENIES = /^(?:no\b|nope\b|hm+,? no\b|wrong\b|incorrect\b|not quite\b|that'?s (?:wrong|not (?:it|right|true))|hm+\?)/i;
/** The agent taking back what it said before: its earlier idea was a disproved guess. */
export const RETRACT = /\b(?:i was wrong|scratch (?:that|the)|that'?s not (?:it|the (?:issue|cause|problem))|(?:isn'?t|is not|wasn'?t|was not) (?:it|the (?:issue|cause|problem|reason))\b|actually,? no\b|you'?re right|not the (?:issue|cause|problem|reason)\b)/i;

/** The agent opening with the same failure after trying its idea ("Same error: …", "Still failing"): the idea was a disproved guess, what follows may be the cause. */
export const SAME_AGAIN = /^(?:same (?:error|failure|result|thing|problem)|still (?:the same|fail(?:s|ing)?|broken|no luck)|no (?:change|luck|difference))\b/i;

/**
 * What went wrong or changed came from the agent's own new work: a slip it owns ("I defined it but never mounted it")
 * or a change it expected ("the new input, which is expected"). It teaches the next session nothing.
 */
export const OWN_DOING = /\b(?:i (?:forgot|missed|accidentally|mistakenly)|the (?:new )?\w+ i (?:just )?(?:added|changed|wrote|introduced)\b|i \w+ed\b[^.;:]*\bbut (?:never|forgot|didn'?t)|my typo|my own\b|(?:which|that|this|it) (?:is|was) expected)\b/i;

/**
 * The specific words of a text: identifiers with an underscore, digit, dot, dash or slash inside, ALL-CAPS
 * names and numbers of two digits or more, lower-cased. Two texts sharing them talk about the same thing.
 */
export function specifics(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z_$][\w$]*(?:[._:/-][\w$]+)+|[A-Za-z]*_[\w]*|[A-Z]{3,}\w*|\b\d{2,}\b|[a-z]+[A-Z]\w*/g)) {
    const word = m[0].toLowerCase().replace(/[.:/-]+$/, "");
    if (word.length >= 3 && !/^(?:e\.g|i\.e|etc|http|https)$/.test(word)) out.add(word);
  }
  return out;
}

/** A sentence as a learning: one line, trimmed of trailing punctuation noise, capitalised, with a full stop. */
export function statement(text: string): string {
  const trimmed = text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[,;:\-–—\s]+/, "")
    .replace(/[\s,;:]+$/, "");
  if (!trimmed) return "";
  const withStop = /[.!)。！]$/.test(trimmed) ? trimmed : `${trimmed}.`;
  return withStop.charAt(0).toUpperCase() + withStop.slice(1);
}
