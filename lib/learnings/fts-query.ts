/**
 * Turns free text into an FTS5 MATCH expression: every word quoted (so user input can never be FTS
 * syntax: no column filters, NEAR or unbalanced quotes) and joined with OR, letting BM25 rank the
 * learnings that share the most rare words first. Returns null when no word is left to search for.
 */
export function ftsQuery(text: string, maxTerms = 32): string | null {
  return ftsExpression(searchWords(text, maxTerms));
}

/** The words of a text worth searching for: lowercased, in order, without repeats or stop words. */
export function searchWords(text: string, maxTerms = 32): string[] {
  const words = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = match[0];
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    words.add(word);
    if (words.size >= maxTerms) break;
  }
  return [...words];
}

/** Words (as searchWords gives them) as an FTS5 expression, or null for none. */
export function ftsExpression(words: string[]): string | null {
  return words.length ? words.map((w) => `"${w}"`).join(" OR ") : null;
}

// Words too common to say anything about relevance; leaving them out keeps BM25 scores meaningful.
const STOP_WORDS = new Set(
  "a an and are as at be but by for from has have in into is it its of on or that the this to was were will with when what which who how do does did not no yes we you i me my our your they them their there then than so if".split(
    " ",
  ),
);
