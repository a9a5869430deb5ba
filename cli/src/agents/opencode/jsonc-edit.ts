// Setting one member of a JSON-with-comments file (opencode.json, opencode.jsonc) by editing its text:
// everything else (comments, order, formatting) stays as it was. A scanner just good enough to find
// where values start and end; the file's meaning is checked with a real parse by the caller.

export class JsoncError extends Error {}

type Member = { key: string; valueStart: number; valueEnd: number };

/** The position of the next character that is neither whitespace nor inside a comment. */
function skip(text: string, at: number): number {
  for (;;) {
    while (at < text.length && /\s/.test(text[at]!)) at++;
    if (text.startsWith("//", at)) {
      const end = text.indexOf("\n", at);
      at = end < 0 ? text.length : end + 1;
    } else if (text.startsWith("/*", at)) {
      const end = text.indexOf("*/", at + 2);
      if (end < 0) throw new JsoncError("a comment is not closed");
      at = end + 2;
    } else return at;
  }
}

function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  throw new JsoncError("a string is not closed");
}

/** Where the value starting at `at` ends (exclusive). */
function valueEnd(text: string, at: number): number {
  const c = text[at];
  if (c === '"') return stringEnd(text, at);
  if (c === "{" || c === "[") {
    const close = c === "{" ? "}" : "]";
    let i = skip(text, at + 1);
    while (text[i] !== close) {
      if (i >= text.length) throw new JsoncError("an object or list is not closed");
      i = valueEnd(text, i);
      i = skip(text, i);
      if (text[i] === ":" || text[i] === ",") i = skip(text, i + 1);
    }
    return i + 1;
  }
  const literal = /^[^\s,:\]}/]+/.exec(text.slice(at));
  if (!literal) throw new JsoncError(`unexpected "${c ?? "end of file"}"`);
  return at + literal[0].length;
}

/** The members of the object whose `{` is at `open`, and the position of its `}`. */
function members(text: string, open: number): { list: Member[]; close: number } {
  const list: Member[] = [];
  let i = skip(text, open + 1);
  while (text[i] !== "}") {
    if (text[i] !== '"') throw new JsoncError("an object key is not a string");
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skip(text, keyEnd);
    if (text[i] !== ":") throw new JsoncError(`no ":" after "${key}"`);
    const valueStart = skip(text, i + 1);
    const end = valueEnd(text, valueStart);
    list.push({ key, valueStart, valueEnd: end });
    i = skip(text, end);
    if (text[i] === ",") i = skip(text, i + 1);
    else if (text[i] !== "}") throw new JsoncError(`no "," or "}" after "${key}"`);
  }
  return { list, close: i };
}

const indentAt = (text: string, at: number) => /[ \t]*/.exec(text.slice(text.lastIndexOf("\n", at - 1) + 1))![0];

/** Inserts `"key": value` as the object's last member, indented like its other members (or two spaces in). */
function insertMember(text: string, open: number, key: string, value: unknown): string {
  const { list, close } = members(text, open);
  const last = list.at(-1);
  const indent = last ? indentAt(text, skip(text, open + 1)) : `${indentAt(text, open)}  `;
  const member = `${JSON.stringify(key)}: ${JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`)}`;
  if (!last) return `${text.slice(0, open + 1)}\n${indent}${member}\n${indentAt(text, open)}${text.slice(close)}`;
  // After the last value (and its comma, if the file has trailing commas), before what follows it.
  const comma = text[skip(text, last.valueEnd)] === ",";
  const at = comma ? skip(text, last.valueEnd) + 1 : last.valueEnd;
  return `${text.slice(0, at)}${comma ? "" : ","}\n${indent}${member}${comma ? "," : ""}${text.slice(at)}`;
}

/**
 * The text with `path` (keys from the root object down) set to `value`: a member that is there has its
 * value replaced; missing objects on the way are added. Throws JsoncError when the text is not an
 * object or something on the path is not an object.
 */
export function setJsonc(text: string, path: string[], value: unknown): string {
  let open = skip(text, 0);
  if (text[open] !== "{") throw new JsoncError("the file is not a JSON object");
  for (const [depth, key] of path.entries()) {
    const member = members(text, open).list.find((m) => m.key === key);
    const rest = path.slice(depth + 1).reduceRight<unknown>((inner, k) => ({ [k]: inner }), value);
    if (!member) return insertMember(text, open, key, rest);
    if (depth === path.length - 1) {
      const indent = indentAt(text, member.valueStart);
      return `${text.slice(0, member.valueStart)}${JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`)}${text.slice(member.valueEnd)}`;
    }
    if (text[member.valueStart] !== "{") throw new JsoncError(`"${path.slice(0, depth + 1).join(".")}" is not an object`);
    open = member.valueStart;
  }
  return text;
}

/** The file's value, comments and trailing commas allowed (a scan checks the structure, JSON.parse the rest). */
export function parseJsonc(text: string): unknown {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const next = skip(text, i);
    out += text.slice(i, next).replace(/[^\n]/g, " ");
    i = next;
    if (i >= text.length) break;
    if (text[i] === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
    } else if (text[i] === ",") {
      const after = skip(text, i + 1);
      out += text[after] === "}" || text[after] === "]" ? " " : ",";
      i++;
    } else out += text[i++];
  }
  return JSON.parse(out);
}
