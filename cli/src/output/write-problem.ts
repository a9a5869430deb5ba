import { accessSync, constants, existsSync, realpathSync, statSync } from "node:fs";
import path from "node:path";

// Beside writeWhole (./write-whole.ts) but not in it: the hooks load writeWhole, and their chunks are
// kept small (test/unit/cli-hook-imports.test.ts); only commands ask this before they write.

/**
 * Why writeWhole could not write `file`, or null when it could: the folder it writes in (or the nearest
 * one that exists, in which writeWhole would create the rest) must be a folder this process may write
 * in. Asked before work that is lost when the write fails (a token made for the file). It asks the
 * system (access), so root passes where root may write, and a read-only file system is said.
 */
export function writeProblem(file: string): string | null {
  const target = existsSync(file) ? realpathSync(file) : file;
  let folder = path.dirname(target);
  while (!existsSync(folder) && path.dirname(folder) !== folder) folder = path.dirname(folder);
  try {
    if (!statSync(folder).isDirectory()) return `${folder} is not a folder`;
    accessSync(folder, constants.W_OK | constants.X_OK);
    return null;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return `${folder} cannot be written in (${code ?? message})`;
  }
}
