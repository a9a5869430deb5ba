/**
 * The command line a hook of Baton's runs, one grammar for the installers that write it and for
 * install and doctor, which read it back: what runs the CLI, ` hook <subcommand>`, then
 * ` --agent <agent>` for every agent but Claude Code. No imports: opencode's plugin bundles it.
 */
export const hookCommand = (command: string, subcommand: string, agent?: string): string => `${command} hook ${subcommand}${agent ? ` --agent ${agent}` : ""}`;

/** A hook command line of that shape read back (any run of spaces between its words): what runs the CLI and the agent named; null for any other line. */
export function readHookCommand(line: unknown, subcommand: string): { runner: string; agent: string | null } | null {
  if (typeof line !== "string") return null;
  const m = new RegExp(`^(.*\\S)\\s+hook\\s+${subcommand}(?:\\s+--agent\\s+(\\S+))?\\s*$`).exec(line);
  return m ? { runner: m[1]!, agent: m[2] ?? null } : null;
}
