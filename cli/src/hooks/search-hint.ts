import { MAX_HINT_URL_BYTES } from "../../../lib/rules";
import { REDACTION_MARKERS, SecretRedactor } from "../../../lib/secrets/redact-secrets";

// What a hook sends the server to search with (a prompt's opening, the branch's recent commit
// subjects) leaves the machine: one rule for how it is made safe, for every such hint.

/**
 * The text's first `chars`, without a word the cut runs through: half a token no longer has a token's
 * shape, so the redactor would pass it (the whitespace before it may collapse into the hint).
 */
function redactionWindow(text: string, chars: number): string {
  let end = Math.min(text.length, chars);
  if (end < text.length) while (end > 0 && !/\s/.test(text[end]!)) end--;
  return text.slice(0, end);
}

/**
 * Text as it may leave the machine as a search hint: secrets and private blocks withheld (their
 * markers too: a hint to search with has no use for "withheld: GitHub token"), whitespace collapsed,
 * then cut to its first `maxChars`. A pasted log can be megabytes: at most 16 × `maxChars` is redacted.
 */
export function searchHint(text: string, maxChars: number): string {
  const redacted = new SecretRedactor().text(redactionWindow(text, 16 * maxChars)).replace(REDACTION_MARKERS, " ");
  return withinUrlBytes(redacted.replace(/\s+/g, " ").trim().slice(0, maxChars)).trim();
}

/** The text's start that percent-encoded takes at most MAX_HINT_URL_BYTES (whole characters: a cut never splits one). */
function withinUrlBytes(text: string): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    // What URLSearchParams leaves as it is (or a space, "+") is one byte in the URL; any other, "%XX" for
    // each byte of its UTF-8 ("~" too: URLSearchParams writes %7E).
    bytes += /[A-Za-z0-9 *._-]/.test(char) ? 1 : 3 * Buffer.byteLength(char);
    if (bytes > MAX_HINT_URL_BYTES) break;
    end += char.length;
  }
  return text.slice(0, end);
}
