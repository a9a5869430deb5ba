/** Whitespace folded to single spaces, trimmed: a text as one line. */
export const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * `s` in at most `n` UTF-16 code units, "…" last when it was cut. Never between the two halves of a
 * character outside the BMP (an emoji): half of one is not text, and a libSQL server refuses it.
 */
export function cut(s: string, n: number): string {
  if (s.length <= n) return s;
  let end = n - 1;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${s.slice(0, end).trimEnd()}…`;
}
