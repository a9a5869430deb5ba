/**
 * Base64 that decodes to a secret: a Kubernetes Secret's `data:` values (`DATABASE_URL: cG9zdGdyZXM6…`
 * is `postgres://app:…@db/app`), a `.dockerconfigjson`, an `echo … | base64 -d > .env`. No name on the
 * line says so, and the run itself looks like any base64; what it decodes to does. A token is decoded only
 * when it is long and valid base64 (whole groups of four, padding only at the end), and is a secret only
 * when it decodes to printable text in which the redactor finds one: base64 of ordinary text, a hash or a
 * random key (bytes, not text) is left to the other rules.
 */

/** 24 characters (18 bytes) at least: `a:Pw-12345@h` and a scheme is about the shortest secret a text holds. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4}){6,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Printable ASCII, tab and line ends: decoded text, not bytes. */
const PRINTABLE = /^[\x20-\x7e\t\r\n]*$/;

/** Whether `token` is base64 of text that holds a secret; `holdsSecret` is the redactor, run on the shorter decoded text. */
export function encodesSecret(token: string, holdsSecret: (decoded: string) => boolean): boolean {
  if (!BASE64.test(token)) return false;
  const decoded = atob(token);
  return PRINTABLE.test(decoded) && holdsSecret(decoded);
}

/**
 * A line of wrapped base64 (GNU base64 wraps at 76 characters, openssl at 64) with nothing else on it but
 * indentation. `base64 .env` prints the file so: a secret may straddle two lines, each half of it nothing
 * the redactor knows.
 */
const WRAPPED_LINE = /^[ \t]*([A-Za-z0-9+/]{4,}={0,2})[ \t]*\r?$/gm;
/** The narrowest wrapping read: lines this long of base64 alone are hardly anything else. */
const MIN_WIDTH = 40;

/** Wrapped base64: two lines or more, each but the last the same length, the last no longer; joined as one token. */
export type WrappedBase64 = { start: number; end: number; token: string };

export function wrappedBase64(text: string): WrappedBase64[] {
  const blocks: WrappedBase64[] = [];
  let run: { start: number; end: number; parts: string[] } | null = null;
  const flush = () => {
    if (run && run.parts.length > 1) blocks.push({ start: run.start, end: run.end, token: run.parts.join("") });
    run = null;
  };
  for (const match of text.matchAll(WRAPPED_LINE)) {
    const part = match[1]!;
    const start = match.index + match[0].indexOf(part);
    if (!run || !continues(run.parts, part, text.slice(run.end, start))) {
      flush();
      if (part.length >= MIN_WIDTH) run = { start, end: start + part.length, parts: [part] };
    } else {
      run!.parts.push(part);
      run!.end = start + part.length;
    }
  }
  flush();
  return blocks;
}

/** Whether `part`, `gap` after the run's last line, is its next line: the line below, the last one full, no wider. */
function continues(parts: string[], part: string, gap: string): boolean {
  const width = parts[0]!.length;
  const last = parts.at(-1)!;
  return /^[ \t]*\r?\n[ \t]*$/.test(gap) && last.length === width && !last.endsWith("=") && part.length <= width;
}
