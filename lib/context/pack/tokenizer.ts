// o200k_base, the BPE of current OpenAI models and a close stand-in for Claude's: a real token count,
// not characters/4. Imported statically so the ~0.2 s table load happens once per server process,
// never per request (and never in the CLI, which does not import this).
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { BoundedCache } from "../../process/bounded-cache";
import { processWide } from "../../process/process-state";

export function countTokens(text: string): number {
  return text ? countO200k(text) : 0;
}

/** Lines (or runs of lines) whose counts an instance remembers: a few hundred contexts' worth. */
export const PIECE_COUNT_CAPACITY = 20_000;
const pieceCounts = processWide("token counts of lines", () => new BoundedCache<string, number>(PIECE_COUNT_CAPACITY));
/** Only lines up to this long are remembered (most are): the cache's memory stays bounded whatever a team writes. */
export const PIECE_MAX_CHARS = 2_000;
const remember = (text: string, n: number) => {
  if (text.length <= PIECE_MAX_CHARS) pieceCounts.set(text, n);
};

/** The remembered piece counts, for the test that they stay bounded. */
export function pieceCountCache(): BoundedCache<string, number> {
  return pieceCounts;
}

/**
 * A newline followed by anything but whitespace or "/" is a place o200k's pre-tokenizer always splits:
 * no alternative of its pattern can hold the "\n" and the next character (a newline is only ever the
 * tail of a piece, `[\r\n/]*` or `\s*[\r\n]+`, and only whitespace or "/" may follow it there). BPE runs
 * within pieces, so the count of a text is the sum of the counts of its parts cut at those places.
 */
function cutsAfter(text: string, newline: number): boolean {
  return startsPiece(text[newline + 1]);
}

/** Whether a newline followed by this character (undefined: none) is such a place. */
export function startsPiece(next: string | undefined): boolean {
  return next !== undefined && next !== "/" && !isWhitespace(next.charCodeAt(0));
}

function countPiece(piece: string): number {
  let n = pieceCounts.get(piece);
  if (n === undefined) remember(piece, (n = countTokens(piece)));
  return n;
}

/**
 * A space before "(" that follows anything but whitespace is a place o200k's pre-tokenizer always splits
 * too: no piece ends in a space after a non-space (only runs of whitespace hold a space past their
 * start), and at the space ` ?[^\s\p{L}\p{N}]+` matches first. A learning's line ends in its facts,
 * `(0.83, by bo)`, which change with every query while the rest of the line recurs: cut there, the line
 * is counted once and only its facts again.
 */
function countLine(line: string): number {
  // A line seen whole before (a section's header: "## Relevant learnings (57/10000)") is one lookup.
  const whole = pieceCounts.get(line);
  if (whole !== undefined) return whole;
  let total = 0;
  let start = 0;
  for (let i = line.indexOf(" (", 1); i !== -1; i = line.indexOf(" (", i + 2)) {
    if (isWhitespace(line.charCodeAt(i - 1))) continue;
    total += countPiece(line.slice(start, i));
    start = i;
  }
  // A line with no cut is one piece, counted now (it was looked up above).
  if (start === 0) total = countTokens(line);
  else total += countPiece(line.slice(start));
  remember(line, total);
  return total;
}

/**
 * Whether o200k's count of `head + tail` is always the count of `head` plus the count of `tail`: the
 * tail starts with " (" and the head ends in anything but whitespace (countLine's cut), and neither holds
 * a line break. A learning's line is its head (`- content`, the same from context to context) and
 * its facts (` (0.83, by bo)`, new with every query): so split, the head is counted once.
 */
export function cutBetween(head: string, tail: string): boolean {
  if (!head || !tail.startsWith(" (")) return false;
  if (isWhitespace(head.charCodeAt(head.length - 1))) return false;
  return !head.includes("\n") && !head.includes("\r") && !tail.includes("\n") && !tail.includes("\r");
}

/**
 * The exact o200k count of a text (the same number countTokens gives: test/unit/token-count.test.ts
 * checks it on random texts), summed over its lines, each line's count remembered. A context is made
 * of lines that recur from request to request, so only new lines are counted.
 */
export function countTokensByLine(text: string): number {
  let total = 0;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (!cutsAfter(text, i)) continue;
    total += countLine(text.slice(start, i + 1));
    start = i + 1;
  }
  return total + (start < text.length ? countLine(text.slice(start)) : 0);
}

/**
 * Whether a UTF-16 code unit is whitespace as the pre-tokenizer's `\s` reads it (ECMAScript's
 * WhiteSpace and LineTerminator: tab to carriage return, space, no-break and ideographic spaces, the
 * Zs spaces, the line and paragraph separators, U+FEFF). No code point outside the BMP is whitespace,
 * so a surrogate is not (test/unit/pack-scans.test.ts checks every code unit against /\s/u).
 */
function isWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/** How many runs of non-whitespace a text has (what `text.match(/\S+/gu).length` says, without the array). */
export function nonSpaceRuns(text: string): number {
  let runs = 0;
  let inRun = false;
  for (let i = 0; i < text.length; i++) {
    const space = isWhitespace(text.charCodeAt(i));
    if (!space && !inRun) runs++;
    inRun = !space;
  }
  return runs;
}

/**
 * The longest run of one kind of character (letters, whitespace, or other symbols: each such run is one
 * piece of o200k's pre-tokenizer) a line may hold and still be counted. BPE's time grows with the square
 * of a piece's length (gpt-tokenizer: 5 ms for 1,000 random letters, 42 ms for 5,000, 37 s for 160,000),
 * and no word people write comes near it; base64 and hex mix digits in, which cut their pieces short.
 */
export const MAX_COUNTED_RUN = 1_000;
// Runs of one kind of character, each maximal: letters, whitespace, digits, anything else.
const RUNS = /[\p{L}\p{M}]+|\s+|\p{N}+|[^\s\p{L}\p{M}\p{N}]+/gu;

/** Whether a text holds a run too long to count (MAX_COUNTED_RUN; digits are cut in threes): such a line is never shown (pack-context.ts). One pass. */
export function tooLongToCount(text: string): boolean {
  if (text.length <= MAX_COUNTED_RUN) return false;
  for (const [run] of text.matchAll(RUNS)) if (run.length > MAX_COUNTED_RUN && !/^\p{N}/u.test(run)) return true;
  return false;
}

/**
 * A number of tokens the text has at least, without running BPE: its runs of non-whitespace (a text
 * with a line break counts as one). No piece of o200k's pre-tokenizer holds two such runs (a piece is a
 * word, a number or punctuation, with at most one character in front, or whitespace alone; only
 * `[\r\n/]*` reaches past a line break), and every piece is at least one token. Whitespace is what
 * the pre-tokenizer's `\s` is (no-break and ideographic spaces too). The packer passes over a line this
 * says cannot fit without counting it (test/unit/token-count.test.ts checks the bound).
 */
export function fewestTokens(text: string): number {
  if (text.includes("\n") || text.includes("\r")) return 1;
  return nonSpaceRuns(text);
}
