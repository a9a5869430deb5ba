import { readFileSync } from "node:fs";
import path from "node:path";
import { blockTask } from "../commands/claude-md-block";
import { TASK_IMPORT_FILE } from "../../../lib/rules";

/** The block in one file; null without one (or without the file). */
function blockIn(file: string): string | null {
  try {
    return blockTask(readFileSync(file, "utf8"));
  } catch {
    // no such file, or one that cannot be read: nothing is imported
    return null;
  }
}

/**
 * The task whose memory the repository imports (the block `baton task start` keeps in CLAUDE.local.md,
 * or left in CLAUDE.md by an earlier Baton until the next start or stop), or null. Claude Code reads
 * that file into the session itself, so the server need not send the memory.
 */
export function importedTask(repoRoot: string | null): string | null {
  if (!repoRoot) return null;
  return blockIn(path.join(repoRoot, TASK_IMPORT_FILE)) ?? blockIn(path.join(repoRoot, "CLAUDE.md"));
}
