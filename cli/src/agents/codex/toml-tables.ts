/**
 * Line-level edits of a TOML file (Codex's config.toml) that keep everything else as it was: other
 * tables, their order, comments, blank lines. A TOML library would parse the file but write it back
 * without its comments; so the file is scanned here (enough TOML to find every table and key and to
 * refuse a file that is not TOML) and only the statements Baton owns are replaced or appended.
 */

export class TomlError extends Error {}

type Statement = { key: string[]; start: number; end: number };
type Table = { path: string[]; array: boolean; header: number; statements: Statement[] };

export type TomlDoc = { lines: string[]; eol: string; root: Statement[]; tables: Table[] };

const BARE = /^[A-Za-z0-9_-]+$/;

/** A key as TOML writes it: bare when it can be, else a basic string (JSON's escapes are TOML's). */
export const tomlKey = (segment: string): string => (BARE.test(segment) ? segment : JSON.stringify(segment));
export const tomlString = (value: string): string => JSON.stringify(value);
export const tomlStrings = (values: string[]): string => `[${values.map(tomlString).join(", ")}]`;

type Scan = { string: null | '"' | "'" | '"""' | "'''"; depth: number };

/** Reads a dotted key at `text[i]`: its segments and where it ends. */
function readKey(text: string, i: number, where: string): { key: string[]; end: number } {
  const key: string[] = [];
  for (;;) {
    while (text[i] === " " || text[i] === "\t") i++;
    if (text[i] === '"') {
      const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i));
      if (!m) throw new TomlError(`${where}: an unterminated quoted key`);
      key.push(JSON.parse(m[0]) as string);
      i += m[0].length;
    } else if (text[i] === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) throw new TomlError(`${where}: an unterminated quoted key`);
      key.push(text.slice(i + 1, close));
      i = close + 1;
    } else {
      const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i));
      if (!m) throw new TomlError(`${where}: a key was expected`);
      key.push(m[0]);
      i += m[0].length;
    }
    while (text[i] === " " || text[i] === "\t") i++;
    if (text[i] !== ".") return { key, end: i };
    i++;
  }
}

/** Scans a value's text from `i` on, carrying strings and brackets over lines; throws on a string left open at the line's end. */
function scanValue(text: string, i: number, state: Scan, where: string): void {
  while (i < text.length) {
    if (state.string === '"""' || state.string === "'''") {
      const close = text.indexOf(state.string, i);
      if (close < 0) return;
      i = close + 3;
      state.string = null;
      continue;
    }
    if (state.string === '"') {
      const c = text[i];
      if (c === "\\") i += 2;
      else {
        if (c === '"') state.string = null;
        i++;
      }
      continue;
    }
    if (state.string === "'") {
      if (text[i] === "'") state.string = null;
      i++;
      continue;
    }
    const c = text[i]!;
    if (c === "#") return;
    if (text.startsWith('"""', i) || text.startsWith("'''", i)) {
      state.string = text.slice(i, i + 3) as '"""' | "'''";
      i += 3;
    } else if (c === '"' || c === "'") {
      state.string = c;
      i++;
    } else {
      if (c === "[" || c === "{") state.depth++;
      if (c === "]" || c === "}") state.depth--;
      i++;
    }
  }
  if (state.string === '"' || state.string === "'") throw new TomlError(`${where}: a string is not closed on its line`);
}

/** The file's tables and statements; throws TomlError when it is not TOML as far as the scan can tell. */
export function parseToml(text: string): TomlDoc {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.split("\n").map((l) => l.replace(/\r$/, ""));
  if (lines.at(-1) === "") lines.pop();
  const doc: TomlDoc = { lines, eol, root: [], tables: [] };
  const seen = new Set<string>();
  let current: Statement[] = doc.root;
  let open: { statement: Statement; state: Scan } | null = null;
  lines.forEach((line, n) => {
    const where = `line ${n + 1}`;
    if (open) {
      scanValue(line, 0, open.state, where);
      open.statement.end = n + 1;
      if (!open.state.string && open.state.depth <= 0) open = null;
      return;
    }
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith("#")) return;
    if (trimmed.startsWith("[")) {
      const array = trimmed.startsWith("[[");
      const { key, end } = readKey(trimmed, array ? 2 : 1, where);
      const close = array ? "]]" : "]";
      if (!trimmed.startsWith(close, end) || !/^\s*(#.*)?$/.test(trimmed.slice(end + close.length))) throw new TomlError(`${where}: a table header is not closed`);
      const id = JSON.stringify(key);
      if (!array && seen.has(id)) throw new TomlError(`${where}: the table [${key.join(".")}] is defined twice`);
      seen.add(id);
      const table: Table = { path: key, array, header: n, statements: [] };
      doc.tables.push(table);
      current = table.statements;
      return;
    }
    const { key, end } = readKey(line, line.length - line.trimStart().length, where);
    if (line[end] !== "=") throw new TomlError(`${where}: "=" was expected after the key`);
    const rest = line.slice(end + 1);
    if (!rest.trim() || rest.trim().startsWith("#")) throw new TomlError(`${where}: the key has no value`);
    const statement: Statement = { key, start: n, end: n + 1 };
    current.push(statement);
    const state: Scan = { string: null, depth: 0 };
    scanValue(rest, 0, state, where);
    if (state.string || state.depth > 0) open = { statement, state };
  });
  if (open) throw new TomlError("the file ends inside a multi-line string or array");
  return doc;
}

const samePath = (a: string[], b: string[]) => a.length === b.length && a.every((s, i) => s === b[i]);

/**
 * `text` with `entries` (key → value as TOML text) set in the table at `path`: the table is appended
 * when it is missing, and only the statements of those keys are replaced or added; other keys and
 * comments stay. Refuses a table that the file defines some other way (dotted keys, an inline table),
 * which a header of its own would clash with; throws TomlError when the file is not TOML.
 */
export function setTable(text: string, path: string[], entries: [string, string][], remove: readonly string[] = []): { text: string; changed: boolean } {
  const doc = parseToml(text);
  for (let i = 0; i < path.length; i++) {
    const parent = i === 0 ? doc.root : doc.tables.find((t) => !t.array && samePath(t.path, path.slice(0, i)))?.statements;
    if (parent?.some((s) => s.key[0] === path[i])) {
      throw new TomlError(`[${path.map(tomlKey).join(".")}] is set with a dotted key or an inline table; make it a table of its own`);
    }
    if (doc.tables.some((t) => t.array && samePath(t.path, path.slice(0, i + 1)))) throw new TomlError(`[[${path.slice(0, i + 1).map(tomlKey).join(".")}]] is an array of tables`);
  }
  const lines = doc.lines;
  const table = doc.tables.find((t) => !t.array && samePath(t.path, path));
  if (!table) {
    if (lines.length && lines.at(-1)!.trim()) lines.push("");
    lines.push(`[${path.map(tomlKey).join(".")}]`, ...entries.map(([k, v]) => `${tomlKey(k)} = ${v}`));
    return { text: print(doc), changed: true };
  }
  const replaced: { start: number; end: number; text: string }[] = [];
  const added: string[] = [];
  // Keys that must go (set plain or dotted), and tables of their own under them ([path.key] and below).
  for (const s of table.statements) if (remove.includes(s.key[0]!)) replaced.push({ start: s.start, end: s.end, text: "" });
  for (const sub of doc.tables) {
    if (sub.path.length > path.length && samePath(sub.path.slice(0, path.length), path) && remove.includes(sub.path[path.length]!)) {
      replaced.push({ start: sub.header, end: sub.statements.at(-1)?.end ?? sub.header + 1, text: "" });
    }
  }
  for (const [k, v] of entries) {
    const statement = `${tomlKey(k)} = ${v}`;
    const found = table.statements.find((s) => s.key.length === 1 && s.key[0] === k);
    if (!found) added.push(statement);
    else {
      const old = lines.slice(found.start, found.end);
      // The same value with a comment after it is left as it is.
      if (old.length !== 1 || old[0]!.replace(/\s+#.*$/, "").trim() !== statement) replaced.push({ start: found.start, end: found.end, text: statement });
    }
  }
  if (!replaced.length && !added.length) return { text, changed: false };
  // New keys go after the table's last statement; edits run from the bottom up so earlier line numbers stay valid.
  const after = table.statements.at(-1)?.end ?? table.header + 1;
  const edits = [...replaced, ...(added.length ? [{ start: after, end: after, text: added.join("\n") }] : [])].sort((a, b) => b.start - a.start);
  for (const e of edits) lines.splice(e.start, e.end - e.start, ...(e.text ? e.text.split("\n") : []));
  return { text: print(doc), changed: true };
}

const print = (doc: TomlDoc): string => (doc.lines.length ? doc.lines.join(doc.eol) + doc.eol : "");
