/**
 * FTS5 works on UTF-8 bytes, and two of its steps can cut a character in two: the porter stemmer
 * (it treats each byte of a non-ASCII letter as a consonant, so "ba₂ed" → "ba" + the first two of ₂'s
 * three bytes) and the 32,768-byte cap on a stored term. Such a term is not valid UTF-8, so it is spelt
 * here the way Python's "surrogateescape" does: every byte that is not part of a well-formed character
 * becomes the lone surrogate U+DC80–U+DCFF. Different byte strings stay different strings, and no text
 * can produce such a surrogate itself (FTS5 reads a lone surrogate in text as U+FFFD, a separator).
 */

const ESCAPE = 0xdc00;

/** The term whose UTF-8 bytes are bytes[start, end), malformed bytes escaped as above. */
export function ftsTermFromBytes(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let out = "";
  let i = start;
  while (i < end) {
    const b = bytes[i]!;
    if (b < 0x80) {
      out += String.fromCharCode(b);
      i++;
      continue;
    }
    const size = sequenceSize(bytes, i, end);
    if (size === 0) {
      out += String.fromCharCode(ESCAPE + b);
      i++;
      continue;
    }
    let cp = b & (size === 2 ? 0x1f : size === 3 ? 0x0f : 0x07);
    for (let k = 1; k < size; k++) cp = (cp << 6) | (bytes[i + k]! & 0x3f);
    out += String.fromCodePoint(cp);
    i += size;
  }
  return out;
}

/** How many bytes the well-formed character at bytes[i] takes (RFC 3629), or 0 if it is not one. */
function sequenceSize(bytes: Uint8Array, i: number, end: number): number {
  const b = bytes[i]!;
  const size = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (size === 0 || i + size > end) return 0;
  const second = bytes[i + 1]!;
  // The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF.
  const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
  const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
  if (second < low || second > high) return 0;
  for (let k = 2; k < size; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return 0;
  return size;
}

/** Bytes of a code point in UTF-8. */
export function utf8Size(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

const encoder = new TextEncoder();

/** The first `max` UTF-8 bytes of a term (which must be well-formed text), spelt as ftsTermFromBytes does. */
export function ftsTermPrefix(term: string, max: number): string {
  const bytes = encoder.encode(term);
  return ftsTermFromBytes(bytes, 0, Math.min(max, bytes.length));
}

/** Writes text's UTF-8 bytes into buffer (which must be large enough) and returns how many. */
export function encodeInto(text: string, buffer: Uint8Array): number {
  return encoder.encodeInto(text, buffer).written;
}
