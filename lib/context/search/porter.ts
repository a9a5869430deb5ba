/**
 * The Porter (1980) stemmer as SQLite's FTS5 `porter` tokenizer applies it, written from the paper
 * and checked term for term against FTS5 (test/integration/fts-tokens.test.ts). It works on the
 * UTF-8 bytes of a folded token; FTS5's own choices, kept here:
 * - Only tokens of 3 to 64 bytes are stemmed, whatever their bytes: digits and every byte of a
 *   non-ASCII letter are consonants, so a stem can end inside a character (see fts-bytes.ts).
 * - A suffix only matches if at least one byte comes before it.
 * - Step 2 also turns "logi" into "log"; step 1b's *v* counts "y" as a vowel anywhere but first.
 * - Within a step the first suffix that matches decides, even when its condition then fails.
 */

const a = 97, e = 101, i_ = 105, l = 108, o = 111, s = 115, t = 116, u = 117, w = 119, x = 120, y = 121, z = 122;

/** The token being stemmed, and its length in bytes. */
const buf = new Uint8Array(64 + 8);
let n = 0;
/** The lowest byte the stemmer overwrote: bytes below it are still the input's. */
let dirty = 0;

function isVowel(b: number, yIsVowel: boolean): boolean {
  return b === a || b === e || b === i_ || b === o || b === u || (yIsVowel && b === y);
}

/**
 * After a vowel-consonant pair in buf[from, to), the index just past its consonant, or 0 if there is
 * none. "y" is a vowel after a consonant; prevCons says whether the byte before `from` was one.
 */
function afterVC(from: number, to: number, prevCons: boolean): number {
  let cons = prevCons;
  let k = from;
  for (; k < to; k++) if (!(cons = !isVowel(buf[k]!, cons))) break;
  for (k++; k < to; k++) if ((cons = !isVowel(buf[k]!, cons))) return k + 1;
  return 0;
}

/** The measure m of the stem buf[0, end) is more than 0, more than 1, exactly 1. */
const mOver0 = (end: number) => afterVC(0, end, false) !== 0;
function mOver1(end: number): boolean {
  const k = afterVC(0, end, false);
  return k !== 0 && afterVC(k, end, true) !== 0;
}
function mIs1(end: number): boolean {
  const k = afterVC(0, end, false);
  return k !== 0 && afterVC(k, end, true) === 0;
}

/** The stem buf[0, end) contains a vowel (*v*); "y" counts unless it comes first. */
function hasVowel(end: number): boolean {
  for (let k = 0; k < end; k++) if (isVowel(buf[k]!, k > 0)) return true;
  return false;
}

/** The stem buf[0, end) ends consonant-vowel-consonant, the last not w, x or y (*o). */
function endsCVC(end: number): boolean {
  const last = buf[end - 1];
  if (end < 3 || last === w || last === x || last === y) return false;
  // Whether each of the last three bytes is a consonant ("y" after a consonant is a vowel).
  let cons = false;
  let kinds = 0;
  for (let k = 0; k < end; k++) kinds = ((kinds << 1) | ((cons = !isVowel(buf[k]!, cons)) ? 1 : 0)) & 7;
  return kinds === 0b101;
}

type Condition = (stemEnd: number) => boolean;
/** A step's rule: a suffix, what replaces it, and the condition on the stem before it. */
type Rule = { suffix: Uint8Array; replacement: Uint8Array; condition: Condition; first: boolean };
/** A step's rules by the suffix's last byte, in the order they are tried. */
type Step = Rule[][];

const bytes = (text: string) => Uint8Array.from(text, (ch) => ch.charCodeAt(0));

/** A step from groups of (condition, "suffix>replacement …"); the first group's first rule is marked. */
function makeStep(...groups: [Condition, string][]): Step {
  const byLast: Step = Array.from({ length: 256 }, () => []);
  groups.forEach(([condition, pairs], g) => {
    pairs.split(" ").forEach((pair, k) => {
      const [suffix, replacement] = pair.split(">");
      const rule = { suffix: bytes(suffix!), replacement: bytes(replacement ?? ""), condition, first: g === 0 && k === 0 };
      byLast[rule.suffix.at(-1)!]!.push(rule);
    });
  });
  return byLast;
}

function endsWith(suffix: Uint8Array): boolean {
  const from = n - suffix.length;
  if (from <= 0) return false;
  for (let k = 0; k < suffix.length; k++) if (buf[from + k] !== suffix[k]) return false;
  return true;
}

/**
 * Applies the first rule whose suffix matches, if its condition holds: 1 if it did (2 if that rule
 * was the step's first), 0 if not.
 */
function step(rules: Step): number {
  for (const rule of rules[buf[n - 1]!]!) {
    if (!endsWith(rule.suffix)) continue;
    const stemEnd = n - rule.suffix.length;
    if (!rule.condition(stemEnd)) return 0;
    buf.set(rule.replacement, stemEnd);
    if (rule.replacement.length) dirty = Math.min(dirty, stemEnd);
    n = stemEnd + rule.replacement.length;
    return rule.first ? 2 : 1;
  }
  return 0;
}

const always: Condition = () => true;
const sOrTAndMOver1: Condition = (end) => (buf[end - 1] === s || buf[end - 1] === t) && mOver1(end);

/** Step 1b; its first rule (eed) is the one that does not lead on to the stem's tidying. */
const STEP_1B = makeStep([mOver0, "eed>ee"], [hasVowel, "ed ing"]);
const STEP_1B_TIDY = makeStep([always, "at>ate bl>ble iz>ize"]);
const STEP_2 = makeStep([
  mOver0,
  "ational>ate tional>tion enci>ence anci>ance izer>ize logi>log bli>ble alli>al entli>ent eli>e ousli>ous " +
    "ization>ize ation>ate ator>ate alism>al iveness>ive fulness>ful ousness>ous aliti>al iviti>ive biliti>ble",
]);
const STEP_3 = makeStep([mOver0, "icate>ic ative alize>al iciti>ic ical>ic ful ness"]);
const STEP_4 = makeStep(
  [mOver1, "al ance ence er ic able ible ant ement ment ent"],
  [sOrTAndMOver1, "ion"],
  [mOver1, "ou ism ate iti ous ive ize"],
);

function write(at: number, byte: number): void {
  buf[at] = byte;
  dirty = Math.min(dirty, at);
}

function step1(): void {
  // 1a: plurals.
  if (buf[n - 1] === s) {
    if (buf[n - 2] === e && ((n > 4 && buf[n - 4] === s && buf[n - 3] === s) || (n > 3 && buf[n - 3] === i_))) n -= 2;
    else if (buf[n - 2] !== s) n -= 1;
  }
  // 1b: -eed, -ed, -ing; after -ed or -ing the stem is tidied: -at, -bl, -iz get their e back, a
  // doubled consonant (but l, s, z) is halved, a short cvc stem gets an e.
  if (step(STEP_1B) === 1 && step(STEP_1B_TIDY) === 0) {
    const last = buf[n - 1]!;
    if (!isVowel(last, false) && last !== l && last !== s && last !== z && last === buf[n - 2]) n -= 1;
    else if (mIs1(n) && endsCVC(n)) write(n++, e);
  }
  // 1c: a final y after a vowel somewhere becomes i.
  if (buf[n - 1] === y && hasVowel(n - 1)) write(n - 1, i_);
}

function step5(): void {
  if (buf[n - 1] === e && (mOver1(n - 1) || (mIs1(n - 1) && !endsCVC(n - 1)))) n -= 1;
  if (n > 1 && buf[n - 1] === l && buf[n - 2] === l && mOver1(n - 1)) n -= 1;
}

/**
 * Stems the token whose UTF-8 bytes the caller has put in porterBuffer()[0, length) (3 to 64 of them)
 * and returns the stem's length. The stem is the input's bytes below porterFirstWritten(), then the
 * buffer's.
 */
export function porterStem(length: number): number {
  n = length;
  dirty = length;
  step1();
  step(STEP_2);
  step(STEP_3);
  step(STEP_4);
  step5();
  return n;
}

/** The lowest byte index the last porterStem overwrote (its input length or more if none). */
export function porterFirstWritten(): number {
  return dirty;
}

/** The buffer porterStem reads and writes. */
export function porterBuffer(): Uint8Array {
  return buf;
}
