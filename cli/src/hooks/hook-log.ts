import { appendFileSync, mkdirSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import { NO_HOME, userFolder } from "../config/home";

/** `$XDG_CACHE_HOME/baton`, else `~/.cache/baton`: the spool, the hook log, what was sent; null with no home folder (config/home.ts). */
export function cacheDirIfAny(): string | null {
  const base = userFolder("XDG_CACHE_HOME", ".cache");
  return base && path.join(base, "baton");
}

/** The cache folder (cacheDirIfAny); with no home folder it throws, and nothing is kept. */
export function cacheDir(): string {
  const dir = cacheDirIfAny();
  if (!dir) throw new Error(NO_HOME);
  return dir;
}

const MAX_LOG = 256 * 1024;

/**
 * Hooks have nobody to tell: what they could not do goes to `<cache>/hook.log` (one line each,
 * rotated at 256 KB). Logging never throws.
 */
export function hookLog(message: string): void {
  try {
    const dir = cacheDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, "hook.log");
    try {
      if (statSync(file).size > MAX_LOG) renameSync(file, `${file}.1`);
    } catch {
      // no log yet
    }
    appendFileSync(file, `${new Date().toISOString()} [${process.pid}] ${message.replace(/\s+/g, " ").slice(0, 1000)}\n`, { mode: 0o600 });
  } catch {
    // a full disk or a read-only home must not break a hook
  }
}
