import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Writes `text` to `file` whole or not at all: into a temporary file beside it (named for this process,
 * so two writers never share one), renamed over it. A crash, a full disk or a file-size limit leaves the
 * file as it was, never half written, and a reader never sees half of it. A symlinked file (dotfiles)
 * is written where the link points; the file keeps its mode unless `mode` gives one. Returns the path
 * written. Every file the CLI writes for later (its config, agents' configs, the hooks' spool and
 * state) is written this way.
 */
export function writeWhole(file: string, text: string, options: { mode?: number; dirMode?: number } = {}): string {
  const target = existsSync(file) ? realpathSync(file) : file;
  mkdirSync(path.dirname(target), { recursive: true, ...(options.dirMode === undefined ? {} : { mode: options.dirMode }) });
  const mode = options.mode ?? (existsSync(target) ? statSync(target).mode & 0o7777 : undefined);
  const tmp = `${target}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(tmp, text, mode === undefined ? undefined : { mode });
    // The mode a new file is created with passes through the umask: set it as asked.
    if (mode !== undefined) chmodSync(tmp, mode);
    renameSync(tmp, target);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  return target;
}
