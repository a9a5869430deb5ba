/**
 * The one block Baton keeps in CLAUDE.local.md (TASK_IMPORT_FILE; CLAUDE.md held it once), importing
 * the active task's memory with Claude Code's `@path` syntax. Everything outside the block is kept byte for byte (line endings, a missing final
 * newline), and removing the block gives back exactly the file it was added to.
 */
export const BLOCK_START = "<!-- baton:task -->";
export const BLOCK_END = "<!-- /baton:task -->";

const BLOCK = /<!-- baton:task -->[\s\S]*?<!-- \/baton:task -->/g;

const eolOf = (text: string) => (text.includes("\r\n") ? "\r\n" : "\n");

export function taskBlock(taskId: string, eol = "\n"): string {
  return [BLOCK_START, `@backlog/memory/${taskId}.md`, BLOCK_END].join(eol);
}

/** The task id the block imports, or null. */
export function blockTask(text: string): string | null {
  const match = /<!-- baton:task -->\s*@backlog\/memory\/([^\s]+)\.md\s*<!-- \/baton:task -->/.exec(text);
  return match ? match[1]! : null;
}

/** Removes one block and the line breaks that were added with it. */
function removeOne(text: string, start: number, end: number): string {
  let before = text.slice(0, start);
  let after = text.slice(end);
  const eol = eolOf(text);
  if (after.startsWith(eol)) {
    after = after.slice(eol.length);
    // At the end of the file it was appended after a blank line: take that back too. Between two
    // blank lines, one of them goes with it.
    if (before.endsWith(eol + eol) && (!after || after.startsWith(eol))) before = before.slice(0, -eol.length);
  } else if (!after) {
    // Appended to a file without a final newline: after a line break and a blank line.
    if (before.endsWith(eol + eol)) before = before.slice(0, -2 * eol.length);
    else if (before.endsWith(eol)) before = before.slice(0, -eol.length);
  }
  return before + after;
}

/** The file without any Baton block. */
export function removeTaskBlock(text: string): string {
  let out = text;
  for (;;) {
    BLOCK.lastIndex = 0;
    const match = BLOCK.exec(out);
    if (!match) return out;
    out = removeOne(out, match.index, match.index + match[0].length);
  }
}

/**
 * The file with exactly one block importing `taskId`: the first block is rewritten in place,
 * others are removed; without one, the block is appended after a blank line, in the file's own
 * line endings and keeping its lack of a final newline.
 */
export function upsertTaskBlock(text: string, taskId: string): string {
  const eol = eolOf(text);
  const block = taskBlock(taskId, eol);
  BLOCK.lastIndex = 0;
  const first = BLOCK.exec(text);
  if (first) {
    const head = text.slice(0, first.index);
    const tail = removeTaskBlock(text.slice(first.index + first[0].length));
    return head + block + tail;
  }
  if (!text) return block + eol;
  if (text.endsWith(eol)) return text + eol + block + eol;
  return text + eol + eol + block;
}
