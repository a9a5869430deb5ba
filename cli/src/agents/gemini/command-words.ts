/**
 * The words of a hook command prefix (`baton`, `node /abs/baton.mjs`, `node "/a path/baton.mjs"` as
 * `baton install` writes them) for a config that starts a program with its arguments and no shell: an
 * MCP server's `command` and `args`. A double-quoted word is read as the JSON string it was written as.
 */
export function commandWords(command: string): string[] {
  const words: string[] = [];
  for (const match of command.matchAll(/"(?:[^"\\]|\\.)*"|\S+/g)) {
    const word = match[0];
    words.push(word.startsWith('"') ? (JSON.parse(word) as string) : word);
  }
  return words;
}
