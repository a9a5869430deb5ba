import { existsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { homeFolder } from "../config/home";

/**
 * The folder a hook works in: the session's (its input names it) when it exists, else the one the hook
 * was started in, else the home folder, else the temporary folder. process.cwd() throws (ENOENT
 * uv_cwd) once the folder the agent runs in is deleted, as a removed git worktree is while its
 * session ends: the hook must still read its input and post the session. A cwd that names a file is
 * no folder to start a worker in (spawn: ENOTDIR).
 */
export function safeCwd(sessionCwd?: string | null): string {
  if (sessionCwd && isFolder(sessionCwd)) return sessionCwd;
  try {
    const here = process.cwd();
    if (existsSync(here)) return here;
  } catch {
    // deleted under us: ENOENT uv_cwd
  }
  const home = homeFolder();
  return home && existsSync(home) ? home : tmpdir();
}

function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
