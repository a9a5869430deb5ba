/**
 * Turns free text into an FTS5 MATCH expression: every word quoted (so user input can never be FTS
 * syntax: no column filters, NEAR or unbalanced quotes) and joined with OR, letting BM25 rank the
 * learnings that share the most rare words first. Returns null when no word is left to search for.
 */
export function ftsQuery(text: string, maxTerms = 32): string | null {
  return ftsExpression(searchWords(text, maxTerms));
}

/**
 * The words of a text worth searching for: lowercased, in order, without repeats or stop words. A word's
 * accents stay in it: composed first (NFC: macOS types "é" as "e" and a combining accent), and a mark
 * lower case leaves (Turkish "İ" lowercases to "i" and a combining dot) is part of its word, not a
 * break in it ("İstanbul" was "i" and "stanbul").
 */
export function searchWords(text: string, maxTerms = 32): string[] {
  const words = new Set<string>();
  for (const match of text.normalize("NFC").toLowerCase().matchAll(WORD)) {
    const word = match[0];
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    words.add(word);
    if (words.size >= maxTerms) break;
  }
  return [...words];
}

/** A word: letters (with their combining marks), digits and "_". */
const WORD = /[\p{L}\p{N}_][\p{L}\p{M}\p{N}_]*/gu;

/** Words (as searchWords gives them) as an FTS5 expression, or null for none. */
export function ftsExpression(words: string[]): string | null {
  return words.length ? words.map((w) => `"${w}"`).join(" OR ") : null;
}

/**
 * Words too common to say anything about relevance; leaving them out keeps BM25 scores meaningful. In the
 * languages teams write in besides English too: a store holds few of their learnings, so "la", "die" or
 * "и" would weigh as rare words, and an unrelated prompt ("Die Katze schläft") would match the one
 * German learning. Words that also name something in a developer's English are not among them (es for
 * ECMAScript, en for a locale, com, os, dos, sim, mit, du, sa, em, op, con, des, war, var, su).
 */
const STOP_WORDS = new Set(
  [
    "a an and are as at be but by for from has have in into is it its of on or that the this to was were will with when what which who how do does did not no yes we you i me my our your they them their there then than so if",
    // German
    "der die das den dem des ein eine einer eines einem einen und oder aber nicht ist sind wird werden wurde zu zum zur im am auf für aus bei nach über unter vor durch auch noch nur schon sehr wie wo wann warum wer er sie wir ihr ich mich mir dich dir sich uns euch kein keine dass wenn weil als bis ob dann denn doch mal hier da dort diese dieser dieses jetzt bitte danke ja nein",
    // French
    "le la les un une et ou mais ne pas est sont était sera avec pour par sur dans aux ce cet cette ces qui que quoi dont où il elle ils elles nous vous je tu se son ses leur leurs mon mes ton tes comme plus très tout tous toute bien merci oui non si aussi encore déjà",
    // Spanish, Portuguese, Italian
    "el los las una unos unas pero son era fue por para sin sobre del al lo le sus mi mis tus qué como cómo cuando donde dónde este esta estos estas ese esa muy más ya también hay gracias sí",
    "um uma ou mas não é são foi nos nas da das ao seu sua isso muito mais já obrigado",
    "il gli della dei delle alla che dove questo questa molto più anche grazie sono per",
    // Dutch
    "het een maar niet zijn voor naar uit ook nog deze wat wie hoe waar ik jij hij zij wij jullie ze ons mijn dank nee",
    // Russian, Turkish
    "и в во не на что он с со как а то все она так его но да ты к у же вы за бы по только ее мне было вот от меня еще нет о из ему когда даже ли если уже или ни быть был до вас там себя ей может они тут где есть надо для мы тебя их чем была без будет тогда кто этот того потому этого какой здесь этом при после над больше через эти нас про",
    "ve bir bu için ile ne mi çok daha gibi ama şu sen biz siz onlar yok değil olarak",
  ]
    .join(" ")
    .split(" "),
);
