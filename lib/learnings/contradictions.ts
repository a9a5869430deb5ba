/**
 * Does a pair of learnings look contradictory? Pure and model-free: the tidy-up queue runs it on
 * candidate pairs (found by shared words) and a person decides, so it must rather miss a pair than
 * fill the queue with compatible ones. Tuned on test/fixtures/contradictions/tune.json; scored by
 * bench/contradictions.ts. The signals, each needing the two texts to share a subject first:
 *  - a change marker in one text ("now", "moved to", "renamed", "no longer", "instead", "since") —
 *    an old fact and its replacement;
 *  - opposite polarity about the same thing: one says "never/don't X", the other tells you to X;
 *  - the same key with different values (a port, a version, a region), when nothing in the texts
 *    says they are about different environments, platforms or services;
 *  - a pair of opposites ("server"/"client", "always"/"never") over a shared subject.
 */

export type ContradictionVerdict = { contradictory: boolean; score: number; reasons: string[] };

// Stems of words that say a fact changed.
const CHANGE = /\b(now|moved|migrated|renamed|changed|switched|dropped|replaced|since|any ?more|no longer|instead(?! of)|was)\b/i;
const NEGATION = /\b(never|don'?t|do not|not|no|can'?t|cannot|mustn'?t|must not|isn'?t|aren'?t|avoid|forbidden|stop)\b/i;
const INSTRUCTION = /^\s*(always\s+)?(use|run|install|set|keep|store|prefer|pin|bump|increment|target|log|add|call|put|open|commit|edit|introduce|just|ship|to\b)/i;

// Qualifiers that scope a fact: two texts naming different ones of a class are about different things.
const QUALIFIER_CLASSES: Record<string, string>[] = [
  { production: "prod", prod: "prod", staging: "stg", stg: "stg", dev: "dev", development: "dev", preview: "preview", dr: "dr", test: "test", ci: "ci" },
  { ios: "ios", android: "android" },
  { grpc: "grpc", http: "http", storybook: "storybook", next: "next" },
  { aws: "aws", random: "random" },
];

const OPPOSITES: [string, string][] = [
  ["server", "client"],
  ["always", "never"],
];

const STOP = new Set(
  "a an and are as at be but by for from has have in into is it its of on or that the this to was were will with when what which who how do does did not no we you our your they them there then than so if only all any each every new use used uses run runs must should can just always never don dont t s re ll via before after now once same".split(" "),
);

const CANON: Record<string, string> = { prod: "production", stg: "staging", tokens: "token", pages: "page", components: "component", prs: "pr" };

function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9_]+/g) ?? []).map((w) => CANON[w] ?? w);
}

/** Content words: what a text is about, with stop words and bare numbers left out. */
function subject(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(text)) {
    if (w.length < 2 || STOP.has(w) || /^\d{1,2}$/.test(w)) continue;
    out.add(w.length > 4 && w.endsWith("s") ? w.slice(0, -1) : w);
  }
  return out;
}

/** Values a fact may pin: versions, ports, regions. */
function values(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/\b[a-z]{2}-[a-z]+-\d\b|\b\d+(?:\.\d+)*\b/g)) {
    const v = m[0].replace(/\.0$/, "");
    if (v.length) out.add(v);
  }
  return out;
}

/** Text without `code spans`: a command named `moved` is not a change marker. */
function prose(text: string): string {
  return text.replace(/`[^`]*`/g, " ");
}

function qualifiers(ws: Set<string>): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  QUALIFIER_CLASSES.forEach((cls, i) => {
    for (const w of ws) {
      const q = cls[w];
      if (q) out.set(i, (out.get(i) ?? new Set()).add(q));
    }
  });
  return out;
}

/** Each text names a qualifier of one class that the other does not: different scopes, not a conflict. */
function differentScope(a: Set<string>, b: Set<string>): boolean {
  const qa = qualifiers(a);
  const qb = qualifiers(b);
  for (const [cls, sa] of qa) {
    const sb = qb.get(cls);
    if (!sb) continue;
    const onlyA = [...sa].some((q) => !sb.has(q));
    const onlyB = [...sb].some((q) => !sa.has(q));
    if (onlyA && onlyB) return true;
  }
  return false;
}

function negated(text: string): boolean {
  return NEGATION.test(prose(text));
}

/** The words a negation governs: the rest of its clause ("don't run npm install" → npm, install). */
function negatedObject(text: string): Set<string> {
  const m = NEGATION_CLAUSE.exec(text);
  return m ? subject(m[1] ?? "") : new Set();
}
const NEGATION_CLAUSE = /\b(?:never|don'?t|do not|not|no|can'?t|cannot|must not|avoid)\b([^;.,—]*)/i;

function instructs(text: string): boolean {
  return INSTRUCTION.test(prose(text)) || /\b(must|has to|have to|needs? to)\b/i.test(prose(text));
}

/** What the detector reads of one text, computed once when a text is compared with many. */
export type TextFeatures = {
  words: Set<string>;
  subject: Set<string>;
  values: Set<string>;
  change: boolean;
  negated: boolean;
  instructs: boolean;
  negatedObject: Set<string>;
};

export function textFeatures(text: string): TextFeatures {
  return {
    words: new Set(words(text)),
    subject: subject(text),
    values: values(text),
    change: CHANGE.test(prose(text)),
    negated: negated(text),
    instructs: instructs(text),
    negatedObject: negatedObject(text),
  };
}

export function detectContradiction(a: string, b: string): ContradictionVerdict {
  return compareFeatures(textFeatures(a), textFeatures(b));
}

export function compareFeatures(fa: TextFeatures, fb: TextFeatures): ContradictionVerdict {
  const { words: wa, subject: sa } = fa;
  const { words: wb, subject: sb } = fb;
  const shared = [...sa].filter((w) => sb.has(w));
  const reasons: string[] = [];
  let score = 0;
  if (shared.length === 0) return { contradictory: false, score, reasons };
  const scoped = differentScope(wa, wb);

  if (fa.change !== fb.change) {
    score += 2;
    reasons.push("change marker");
  }

  const [neg, other] = fa.negated ? [fa, fb] : [fb, fa];
  if (fa.negated !== fb.negated && other.instructs && [...neg.negatedObject].some((w) => other.subject.has(w))) {
    score += 1;
    reasons.push("opposite polarity");
  }

  const va = fa.values;
  const vb = fb.values;
  if (va.size && vb.size && ![...va].some((v) => vb.has(v))) {
    score += 1;
    reasons.push("different values");
  }

  for (const [x, y] of OPPOSITES) {
    if ((wa.has(x) && wb.has(y) && !wa.has(y)) || (wa.has(y) && wb.has(x) && !wb.has(x))) {
      score += 1;
      reasons.push(`${x}/${y}`);
      break;
    }
  }

  if (shared.length >= 2) score += 1;
  if (scoped) score -= 3;
  return { contradictory: score >= THRESHOLD, score, reasons };
}

/** Tuned on tune.json (bench/contradictions.ts prints the figures). */
export const THRESHOLD = 2;
