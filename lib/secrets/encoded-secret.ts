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
