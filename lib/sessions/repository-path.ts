/**
 * The rule for a path a session document lists (its `specs` and `files`): a path inside the repository,
 * relative to its root. A document can come from anyone in the project, and the paths reach a
 * teammate's agent (`baton pickup` reads them; an MCP agent reads them with its own tools), so one
 * that names something outside (`~/.ssh/id_rsa`, `/home/ana/.config/baton/config.json`,
 * `../../.aws/credentials`) is refused where the document is queued and never offered where it is
 * picked up. No imports: the server and the CLI share it. Returns why a path is refused (each caller
 * says what follows from it), or null.
 */
export function outsideRepository(listed: string): string | null {
  if (!listed.trim() || listed.includes("\0")) return "not a usable path";
  if (/^(?:[\\/]|[A-Za-z]:|~)/.test(listed)) return "an absolute path";
  if (listed.split(/[\\/]+/).includes("..")) return "a path with ..";
  return null;
}

/** The listed paths an agent is offered: those inside the repository (a document stored before the rule may hold others). */
export const insideRepository = (paths: readonly string[]): string[] => paths.filter((listed) => outsideRepository(listed) === null);
