/**
 * A path or URL as one word of a POSIX shell command: bare when it can be, in double quotes for spaces,
 * in single quotes when it holds what a shell expands even inside double quotes ($, `, \). Null for
 * one it cannot be written as (a control character, or a single quote as well): callers say what then.
 */
export function shellWord(text: string): string | null {
  if (/^[\w@%+=:,./-]+$/.test(text)) return text;
  if (/[\p{Cc}]/u.test(text)) return null;
  if (!/[$`\\"']/.test(text)) return `"${text}"`;
  if (!text.includes("'")) return `'${text}'`;
  return null;
}
