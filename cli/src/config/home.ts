import { homedir } from "node:os";
import path from "node:path";

// Where the CLI keeps the user's config, its cache and finds the agents' files: one rule for what counts
// as the user's home folder, so no caller reads a folder relative to where a command runs.

/**
 * The user's home folder as an absolute path (os.homedir(): $HOME, or the account's passwd entry when
 * HOME is unset); null when it is not one. os.homedir() answers an empty HOME as "" and a relative one
 * as it is, which path.join then reads from the folder the command runs in: with `HOME=` inside a
 * clone, the repository's own `.config/baton/config.json` became the user's config (its token used, its
 * summariser command run) and the hooks' cache was written into the working tree. Without a home folder
 * there is no user config (the environment's BATON_URL and BATON_TOKEN still work) and no cache.
 */
export function homeFolder(): string | null {
  try {
    const folder = homedir();
    return folder && path.isAbsolute(folder) ? folder : null;
  } catch {
    // HOME unset and no passwd entry for this uid
    return null;
  }
}

/**
 * An XDG base folder (`XDG_CONFIG_HOME`, `XDG_CACHE_HOME`), else `<home>/<fallback>`; null with
 * neither. A relative XDG variable is ignored, as the XDG spec says it must be.
 */
export function userFolder(xdg: "XDG_CONFIG_HOME" | "XDG_CACHE_HOME", fallback: ".config" | ".cache"): string | null {
  const set = process.env[xdg]?.trim();
  if (set && path.isAbsolute(set)) return set;
  const home = homeFolder();
  return home ? path.join(home, fallback) : null;
}

/** What a command that needs the home folder says when there is none. */
export const NO_HOME = "no home folder: set HOME to an absolute path";
