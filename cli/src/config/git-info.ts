import { execFile } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { withoutCredentials } from "../../../lib/secrets/without-credentials";

/** One git command's trimmed output, or null when git is missing, fails, or takes too long. */
export function git(args: string[], cwd: string, timeoutMs = 800): Promise<string | null> {
  return new Promise((resolve) => {
    try {
      // Whole milliseconds: execFile throws on a fractional timeout (a deadline halved), and git would go unasked.
      execFile("git", args, { cwd, timeout: Math.max(1, Math.round(timeoutMs)), windowsHide: true, maxBuffer: 256 * 1024 }, (error, stdout) => {
        resolve(error ? null : String(stdout).trim() || null);
      });
    } catch {
      resolve(null);
    }
  });
}

/**
 * The branch checked out, read from the repository's HEAD file without running git (a worktree's `.git`
 * file followed): for a hook with no time left to wait for git. Null on a detached HEAD or anything unread.
 */
export function branchFromHead(repoRoot: string): string | null {
  try {
    let gitDir = path.join(repoRoot, ".git");
    if (statSync(gitDir).isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(gitDir, "utf8"))?.[1]?.trim();
      if (!pointer) return null;
      gitDir = path.resolve(repoRoot, pointer);
    }
    return /^ref: refs\/heads\/(.+)$/m.exec(readFileSync(path.join(gitDir, "HEAD"), "utf8"))?.[1]?.trim() ?? null;
  } catch {
    return null;
  }
}

/** The branch checked out, or null on a detached HEAD (or outside a repository). */
export function currentBranch(cwd: string, timeoutMs = 800): Promise<string | null> {
  return git(["symbolic-ref", "--short", "-q", "HEAD"], cwd, timeoutMs);
}


/**
 * origin's URL without the credentials it may carry (`https://x-access-token:ghp_…@github.com/acme/web`
 * is `https://github.com/acme/web`), or null when there is none or git cannot say. A remote is sent as a
 * hint in query strings and documents: the token in it must stay on this machine.
 */
export async function originUrl(cwd: string, timeoutMs = 800): Promise<string | null> {
  const remote = await git(["remote", "get-url", "origin"], cwd, timeoutMs);
  return remote && withoutCredentials(remote);
}

export type GitHints = { branch: string | null; remote: string | null; subjects: string[] };

/** Outside a repository there is nothing to ask git. */
export const NO_GIT_HINTS: GitHints = { branch: null, remote: null, subjects: [] };

/** Branch (null on a detached HEAD), origin's URL and the last commit subjects, asked in parallel. */
export async function gitHints(cwd: string, timeoutMs = 800, commits = 3): Promise<GitHints> {
  const [branch, remote, log] = await Promise.all([
    currentBranch(cwd, timeoutMs),
    originUrl(cwd, timeoutMs),
    git(["log", `-${commits}`, "--format=%s"], cwd, timeoutMs),
  ]);
  return { branch, remote, subjects: log ? log.split("\n").map((s) => s.trim()).filter(Boolean) : [] };
}
