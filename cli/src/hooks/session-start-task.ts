import { readFileSync } from "node:fs";
import path from "node:path";
import { blockTask } from "../commands/claude-md-block";

/**
 * The task whose memory the repository's CLAUDE.md imports (the block `baton task start` keeps), or
 * null. Claude Code reads that file into the session itself, so the server need not send the memory.
 */
export function importedTask(repoRoot: string | null): string | null {
  if (!repoRoot) return null;
  try {
    return blockTask(readFileSync(path.join(repoRoot, "CLAUDE.md"), "utf8"));
  } catch {
    // no CLAUDE.md, or one that cannot be read: nothing is imported
    return null;
  }
}
