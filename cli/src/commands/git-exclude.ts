import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * The repository's own exclude file (`.git/info/exclude`: git's ignore list that is never committed,
 * unlike .gitignore), as git resolves it (a worktree shares its main repository's); null outside git.
 */
function excludeFile(root: string): string | null {
  try {
    const file = execFileSync("git", ["rev-parse", "--git-path", "info/exclude"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    return file ? path.resolve(root, file) : null;
  } catch {
    // No git on PATH: a plain .git folder still has its file where git would look.
    const dotGit = path.join(root, ".git");
    return existsSync(dotGit) && statSync(dotGit).isDirectory() ? path.join(dotGit, "info", "exclude") : null;
  }
}

const HEADER = "# baton: personal files (baton task start)";

/**
 * Keeps files Baton writes for one developer out of `git status`: adds each path (relative to the
 * repository root, written `/path` so it names that file only) to the exclude file unless there.
 * Returns the paths added; null when there is no exclude file (not a git repository).
 */
export function excludeFromGit(root: string, paths: string[]): string[] | null {
  const file = excludeFile(root);
  if (!file) return null;
  const present = new Set((existsSync(file) ? readFileSync(file, "utf8") : "").split(/\r?\n/).map((l) => l.trim()));
  const added = paths.map((p) => `/${p.replace(/^\/+/, "")}`).filter((p) => !present.has(p));
  if (!added.length) return [];
  mkdirSync(path.dirname(file), { recursive: true });
  const before = existsSync(file) ? readFileSync(file, "utf8") : "";
  const lead = before && !before.endsWith("\n") ? "\n" : "";
  appendFileSync(file, `${lead}${present.has(HEADER) ? "" : `${HEADER}\n`}${added.join("\n")}\n`);
  return added;
}
