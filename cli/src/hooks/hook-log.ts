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

/** What this process has logged of its configuration: a hook may read it twice (openHook), and says each problem once. */
const loggedWarnings = new Set<string>();

/**
 * The configuration's warnings (a `.baton.json` that is not JSON, a token withheld from another server,
 * …), once a hook run: commands print them on stderr, a hook has only this log to say why it found no
 * project or no token.
 */
export function logConfigWarnings(who: string, warnings: readonly string[]): void {
  for (const warning of warnings) {
    if (loggedWarnings.has(warning)) continue;
    loggedWarnings.add(warning);
    hookLog(`${who}: ${warning}`);
  }
}
