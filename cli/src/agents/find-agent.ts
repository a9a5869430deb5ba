import { existsSync, realpathSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Where an executable named `name` is on PATH (resolved through symlinks), or null. Not the
 * node_modules/.bin folders npx and npm scripts add: they are gone when the agent runs a hook.
 */
export function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir || path.basename(dir) === ".bin") continue;
    const file = path.join(dir, name);
    try {
      if (statSync(file).isFile()) return realpathSync(file);
    } catch {
      // not in this folder
    }
  }
  return null;
}

/** `dir` when it is a folder that exists, else null. */
export const folderIfAny = (dir: string): string | null => (existsSync(dir) && statSync(dir).isDirectory() ? dir : null);
