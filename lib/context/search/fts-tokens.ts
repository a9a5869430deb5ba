import { encodeInto, ftsTermFromBytes, ftsTermPrefix, utf8Size } from "./fts-bytes";
import { foldOf, kindOf, SEPARATOR, TOKEN } from "./fts-unicode";
import { porterBuffer, porterFirstWritten, porterStem } from "./porter";

export { ftsTermFromBytes } from "./fts-bytes";

/**
 * The terms SQLite's FTS5 stores for a text under `tokenize='porter unicode61'` (learnings_fts,
 * drizzle/0001_learnings_fts.sql), in order: the same split, case folding, accent removal and Porter
 * stem, so an index built from them ranks as FTS5's bm25() does, and a hint word tokenized here finds
 * exactly what a MATCH would. The rules are FTS5's, measured against it, not Unicode's today:
 * - A token is a run of letters, digits and private-use characters as Unicode 6.1 classed them, plus
 *   code points 6.1 had not assigned (🙂 is a word, 😀 separates; fts-unicode-data.ts). Everything
 *   else separates, "_" included ("snake_case" is two terms); combining accents are dropped inside a
 *   token and separate at its start.
 * - Folding is one code point to at most one: "ß", "ﬁ" and full-width letters stay as they are, "İ"
 *   becomes "i", "é" (composed or not) "e"; letters with two accents such as "ǖ" keep them
 *   (remove_diacritics=1).
 * - Porter stems tokens of 3 to 64 UTF-8 bytes, all of them (porter.ts); longer and shorter pass as
 *   they are; FTS5 keeps the first 32,768 bytes of a longer one.
 * Terms whose bytes are not UTF-8 (a stem or cut inside a character) are spelt as fts-bytes.ts says.
 */
export function ftsTokens(text: string): string[] {
  const terms: string[] = [];
  const length = text.length;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (ASCII_TOKEN[c] === 0) {
        i++;
        continue;
      }
    } else {
      const cp = codePointAt(text, i);
      if (kindOf(cp) !== TOKEN) {
        i += cp > 0xffff ? 2 : 1;
        continue;
      }
    }
    const start = i;
    let ascii = true;
    let upper = false;
    let hash = FNV_OFFSET;
    while (i < length) {
      const d = text.charCodeAt(i);
      if (d < 128) {
        if (ASCII_TOKEN[d] === 0) break;
        if (d <= 90 && d >= 65) upper = true;
        i++;
      } else {
        const cp = codePointAt(text, i);
        if (kindOf(cp) === SEPARATOR) break;
        ascii = false;
        i += cp > 0xffff ? 2 : 1;
      }
      hash = Math.imul(hash ^ d, FNV_PRIME);
    }
    let term = i - start <= CACHED_MAX ? cachedTerm(text, start, i, hash) : undefined;
    if (term === undefined) {
      const token = text.slice(start, i);
      term = ascii ? asciiTerm(upper ? token.toLowerCase() : token) : foldedTerm(token);
      if (token.length <= CACHED_MAX) cacheTerm(token, term, hash);
    }
    terms.push(term);
  }
  return terms;
}

/**
 * Terms of tokens seen before, by the token as written: a team's text repeats a few thousand words,
 * so most tokens skip folding and stemming. An open-addressing table probed with a hash (FNV-1a)
 * taken while scanning, so a repeated token costs no string at all; emptied when half full.
 */
const SLOTS = 1 << 16;
const CACHED_MAX = 64;
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
const cacheTokens: (string | undefined)[] = Array.from({ length: SLOTS }, () => undefined);
const cacheTerms: string[] = Array.from({ length: SLOTS }, () => "");
const cacheHashes = new Int32Array(SLOTS);
let cached = 0;

function cachedTerm(text: string, start: number, end: number, hash: number): string | undefined {
  for (let slot = hash & (SLOTS - 1); ; slot = (slot + 1) & (SLOTS - 1)) {
    const token = cacheTokens[slot];
    if (token === undefined) return undefined;
    if (cacheHashes[slot] !== hash || token.length !== end - start) continue;
    let k = 0;
    while (k < token.length && token.charCodeAt(k) === text.charCodeAt(start + k)) k++;
    if (k === token.length) return cacheTerms[slot];
  }
}

function cacheTerm(token: string, term: string, hash: number): void {
  if (cached >= SLOTS / 2) {
    cacheTokens.fill(undefined);
    cached = 0;
  }
  let slot = hash & (SLOTS - 1);
  while (cacheTokens[slot] !== undefined) slot = (slot + 1) & (SLOTS - 1);
  cacheTokens[slot] = token;
  cacheTerms[slot] = term;
  cacheHashes[slot] = hash;
  cached++;
}

/** FTS5 keeps at most this many bytes of a term (FTS5_MAX_TOKEN_SIZE in fts5Int.h). */
const MAX_TERM_BYTES = 32768;
/** Porter leaves alone tokens shorter or longer than these, in bytes (fts5_tokenize.c). */
const STEM_MIN_BYTES = 3;
const STEM_MAX_BYTES = 64;

/** ASCII letters and digits are token characters; all other ASCII, NUL and "_" included, separates. */
const ASCII_TOKEN = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_TOKEN[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 0;
}

/** The code point at text[i]; a lone surrogate reads as U+FFFD, as it reaches FTS5 (a separator). */
function codePointAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdfff) return c;
  if (c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return 0xfffd;
}

/** The term for a lower-case ASCII token (one byte a character). */
function asciiTerm(token: string): string {
  const size = token.length;
  if (size < STEM_MIN_BYTES || size > STEM_MAX_BYTES) return size > MAX_TERM_BYTES ? token.slice(0, MAX_TERM_BYTES) : token;
  const buf = porterBuffer();
  for (let k = 0; k < size; k++) buf[k] = token.charCodeAt(k);
  const stemmed = porterStem(size);
  const written = porterFirstWritten();
  if (written >= stemmed) return stemmed === size ? token : token.slice(0, stemmed);
  let term = token.slice(0, written);
  for (let k = written; k < stemmed; k++) term += String.fromCharCode(buf[k]!);
  return term;
}

/** The term for a token with characters past ASCII: folded, then stemmed or cut. */
function foldedTerm(raw: string): string {
  let token = "";
  let size = 0;
  let ascii = true;
  for (let k = 0; k < raw.length; ) {
    const cp = codePointAt(raw, k);
    k += cp > 0xffff ? 2 : 1;
    if (cp < 128) {
      token += String.fromCharCode(cp <= 90 && cp >= 65 ? cp + 32 : cp);
      size++;
      continue;
    }
    const folded = foldOf(cp);
    if (folded === 0) continue;
    token += String.fromCodePoint(folded);
    size += utf8Size(folded);
    if (folded >= 128) ascii = false;
  }
  if (ascii) return asciiTerm(token);
  if (size < STEM_MIN_BYTES || size > STEM_MAX_BYTES) return size > MAX_TERM_BYTES ? ftsTermPrefix(token, MAX_TERM_BYTES) : token;
  const buf = porterBuffer();
  encodeInto(token, buf);
  const stemmed = porterStem(size);
  return stemmed === size && porterFirstWritten() >= size ? token : ftsTermFromBytes(buf, 0, stemmed);
}
