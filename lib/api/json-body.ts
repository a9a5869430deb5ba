import { ApiError } from "./errors";

/**
 * A request's JSON text read as Baton stores it. Two things JSON allows and storage does not:
 * - NUL (`\u0000`): SQLite text ends at it, so a stored document would come back silently cut; the body
 *   is refused (`hasNul`).
 * - a lone surrogate (`"\ud83d"` with no second half, what cutting an emoji in two by UTF-16 length
 *   leaves): a libSQL server (sqld, Turso) refuses the whole statement, and a file stores U+FFFD. Every
 *   such string, and key, is read with U+FFFD in its place, as UTF-8 cannot hold it either, so both
 *   stores keep the same text (`repaired` says one was).
 * Throws SyntaxError when the text is not JSON.
 */
export function parseJsonBody(text: string): { value: unknown; hasNul: boolean; repaired: boolean } {
  let hasNul = false;
  let repaired = false;
  const value: unknown = JSON.parse(text, (key, value: unknown) => {
    if (key.includes("\0")) hasNul = true;
    if (typeof value === "string") {
      if (value.includes("\0")) hasNul = true;
      if (LONE_SURROGATE.test(value)) {
        repaired = true;
        return wellFormed(value);
      }
      return value;
    }
    if (value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).some((k) => LONE_SURROGATE.test(k))) {
      repaired = true;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k), v]));
    }
    return value;
  });
  return { value, hasNul, repaired };
}

/** A high surrogate without its low half after it, or a low one without its high half before it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `text` with each lone surrogate replaced by U+FFFD (String.prototype.toWellFormed, which ES2023's types lack). */
export function wellFormed(text: string): string {
  return text.replace(new RegExp(LONE_SURROGATE.source, "g"), "\ufffd");
}

/** A body or input with NUL in it: SQLite text ends at a NUL, so a stored document would come back silently cut. */
export function nulRefused(): ApiError {
  return new ApiError("bad_request", "The body contains a NUL character (\\u0000), which Baton cannot store.");
}

/**
 * A server action's input read as an API body is (parseJsonBody): a form's fields or the object a page's
 * script sends (React decodes it with JSON.parse, so a `"\ud83d"` escape arrives as a lone surrogate).
 * NUL refused; lone surrogates made U+FFFD; anything else handed back as it came.
 */
export function storableInput(raw: unknown): unknown {
  let read: ReturnType<typeof parseJsonBody>;
  try {
    const text = JSON.stringify(raw);
    if (text === undefined) return raw;
    read = parseJsonBody(text);
  } catch {
    // Not JSON's (a cycle, a BigInt), or nested past what a reviver can walk: the schema says what it makes of it.
    return raw;
  }
  if (read.hasNul) throw nulRefused();
  return read.repaired ? read.value : raw;
}
