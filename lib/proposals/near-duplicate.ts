/**
 * When is a proposed learning "the same" as one already stored? Agents restate what they learned in
 * slightly different words every session ("Always run the tests before committing." / "always run
 * tests before commits"), and a review queue full of those is noise.
 *
 * Near means: after lowercasing, dropping punctuation and stop words and a light English stemming
 * (plural and -ing/-ed endings), the two texts' word sets overlap with a Jaccard similarity of at least
 * NEAR_THRESHOLD. Word order, articles and inflection do not matter; a changed or added content word
 * in a short sentence does ("use pnpm" vs "use npm" stay apart).
 */
export const NEAR_THRESHOLD = 0.8;

const STOP = new Set("a an the to of and or in on at for with is are be been it its this that these those by as from into".split(" "));

/** "committing", "committed" → "commit"; "running" → "run". */
function undouble(word: string): string {
  return /([bdgmnprt])\1$/.test(word) ? word.slice(0, -1) : word;
}

export function stem(word: string): string {
  if (word.length > 5 && word.endsWith("ing")) return undouble(word.slice(0, -3));
  if (word.length > 4 && word.endsWith("ed")) return undouble(word.slice(0, -2));
  if (word.length > 4 && word.endsWith("es")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

export function contentWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    if (!STOP.has(match[0])) words.add(stem(match[0]));
  }
  return words;
}

export function similarity(a: string, b: string): number {
  const wa = contentWords(a);
  const wb = contentWords(b);
  if (!wa.size && !wb.size) return a.trim().toLowerCase() === b.trim().toLowerCase() ? 1 : 0;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / (wa.size + wb.size - shared);
}

export function isNearDuplicate(a: string, b: string): boolean {
  return similarity(a, b) >= NEAR_THRESHOLD;
}

/**
 * Looser than near: the same subject, perhaps a different rule about it ("Use npm for installs" vs
 * "Use pnpm for installs, never npm"), which a reviewer may want to replace. Jaccard undervalues a
 * short statement inside a longer one, so this is the overlap coefficient (shared words over the
 * shorter text's), with at least MIN_SHARED_WORDS in common so one shared word is never enough.
 */
export const SIMILAR_THRESHOLD = 0.5;
export const MIN_SHARED_WORDS = 2;

/** The overlap coefficient of two texts when they are similar (higher is closer), else null. */
export function similarScore(a: string, b: string): number | null {
  return similarWordsScore(contentWords(a), contentWords(b));
}

/** similarScore of two texts' contentWords, for a caller that compares one text with many. */
export function similarWordsScore(wa: Set<string>, wb: Set<string>): number | null {
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  const shorter = Math.min(wa.size, wb.size);
  const score = shorter ? shared / shorter : 0;
  return shared >= MIN_SHARED_WORDS && score >= SIMILAR_THRESHOLD ? score : null;
}

export function isSimilar(a: string, b: string): boolean {
  return similarScore(a, b) !== null;
}

/**
 * Two independent sightings of the same candidate make it more likely true: combined as a noisy OR,
 * 1 − (1 − a)(1 − b), kept below 1 so a human review still means something.
 */
export function combineConfidence(a: number, b: number): number {
  return Math.min(0.99, Math.round((1 - (1 - a) * (1 - b)) * 1000) / 1000);
}
