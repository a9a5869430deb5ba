import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { homeFolder, userFolder } from "./home";
import { CONTEXT_MODES, type ContextMode } from "../../../lib/rules";

// Read by the hooks at every session start: node built-ins only, no schema library.

export const DEFAULT_TIMEOUT_MS = 2000;
/** The prompt hook runs before every prompt, so it waits less: nothing new is the usual answer anyway. */
const DEFAULT_PROMPT_TIMEOUT_MS = 1000;

export type BatonConfig = {
  url: string | null;
  token: string | null;
  /** Where the token came from: `baton logout` removes it from the file, and can only name the variable. */
  tokenFrom: "env" | "file" | null;
  /** The hooks' time limit for talking to the server. */
  timeoutMs: number;
  /** The prompt hook's (UserPromptSubmit) time limit, the whole hook included. */
  promptTimeoutMs: number;
  /** The project slug configured (BATON_PROJECT or .baton.json), not derived. */
  project: string | null;
  /**
   * The context's mode: as configured (BATON_MODE, or `mode` in the user's file or .baton.json), else
   * `complement` under PAI (PAI_DIR set: PAI injects identity itself), else `full`.
   */
  mode: ContextMode;
  /** False when `.baton.json` says `"inject": false`: the session-start hook then injects nothing. */
  inject: boolean;
  /** An active task pinned in .baton.json (the server otherwise knows the user's active task). */
  task: string | null;
  /**
   * The summariser as set (BATON_SUMMARISER, else `summariser` in the user's file; never a repository's),
   * unread: the session-end worker reads it (cli/src/summarise/summariser-config.ts), no other hook needs it.
   */
  summariser: unknown;
  /**
   * A CA certificate (PEM) to trust for an https server beyond Node's own: a team's own CA. From
   * BATON_CA_FILE or `caFile` in the user's file, never a repository's (a cloned repository must not
   * choose whom the token is sent to). Read only when a request goes to an https URL.
   */
  caFile: string | null;
  cwd: string;
  /** The directory holding `.git`, or null outside a repository. */
  repoRoot: string | null;
  /** Where the values came from, for messages (configFileName); null: no home folder, so no user config file. */
  userConfigFile: string | null;
  repoConfigFile: string | null;
  /** Invalid configuration files and values, and a token withheld: commands print them, hooks log them once a run (logConfigWarnings, hooks/hook-log.ts). */
  warnings: string[];
};

type FileConfig = Record<string, unknown>;

/**
 * A config file is a few hundred bytes; a repository's `.baton.json` comes with a clone, and may be a
 * symlink to /dev/zero or a FIFO, which a plain read would never finish (before any hook's time limit
 * could end it: the read is synchronous). Only a regular file, and only this much of it, is read.
 */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * A config file's text as JSON. A byte order mark at its start is read past, as JSON readers on Windows
 * do: Notepad and PowerShell write one, and JSON.parse rejects it (CRLF it takes as it is). The one rule
 * for every config file the CLI reads; plugins/baton/bin/baton.mjs and install.sh, which cannot import
 * it, strip it too.
 */
export function parseConfigText(text: string): unknown {
  return JSON.parse(text.replace(/^\uFEFF/, ""));
}

function readJson(file: string, warnings: string[]): FileConfig {
  let text: string;
  try {
    // Not readPart (input/read-part.ts): a stat is enough here, and every hook loads this file.
    const stat = statSync(file);
    if (!stat.isFile() || stat.size > MAX_CONFIG_BYTES) {
      warnings.push(`${file} is ${stat.isFile() ? `larger than ${MAX_CONFIG_BYTES / 1024} KiB` : "not a regular file"}; ignored.`);
      return {};
    }
    text = readFileSync(file, "utf8");
  } catch {
    return {};
  }
  try {
    const value = parseConfigText(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as FileConfig;
    warnings.push(`${file} is not a JSON object; ignored.`);
  } catch (error) {
    warnings.push(`${file} is not valid JSON (${(error as Error).message}); ignored.`);
  }
  return {};
}

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);

/** A path as a user writes it in a config file: `~/…` is their home folder. */
function homePath(file: string | null): string | null {
  if (!file) return null;
  if (file !== "~" && !file.startsWith("~/")) return path.resolve(file);
  const home = homeFolder();
  return home ? path.join(home, file.slice(1)) : null;
}

/** The user's config file as messages name it. */
export const configFileName = (file: string | null) => file ?? "~/.config/baton/config.json (once HOME is set: there is no home folder)";

/** `$XDG_CONFIG_HOME/baton/config.json`, else `~/.config/baton/config.json` (HOME respected); null with no home folder (config/home.ts). */
export function userConfigPath(): string | null {
  const base = userFolder("XDG_CONFIG_HOME", ".config");
  return base && path.join(base, "baton", "config.json");
}

/**
 * Walks up from `cwd` to the repository root (the first directory with `.git`). The nearest
 * `.baton.json` on the way wins, so a package of a monorepo can name its own project.
 */
export function findRepo(cwd: string): { repoRoot: string | null; repoConfigFile: string | null } {
  let repoConfigFile: string | null = null;
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (!repoConfigFile && existsSync(path.join(dir, ".baton.json"))) repoConfigFile = path.join(dir, ".baton.json");
    if (existsSync(path.join(dir, ".git"))) return { repoRoot: dir, repoConfigFile };
    if (path.dirname(dir) === dir) return { repoRoot: null, repoConfigFile };
  }
}

function parseTimeout(value: unknown, from: string, warnings: string[], fallback: number): number | null {
  if (value === undefined || value === null || value === "") return null;
  const n = Number(value);
  if (Number.isInteger(n) && n >= 100 && n <= 120_000) return n;
  warnings.push(`${from} must be a whole number of milliseconds between 100 and 120000; using ${fallback}.`);
  return null;
}

function parseMode(value: unknown, from: string, warnings: string[]): ContextMode | null {
  const mode = str(value);
  if (!mode) return null;
  if ((CONTEXT_MODES as readonly string[]).includes(mode)) return mode as ContextMode;
  warnings.push(`${from} must be ${CONTEXT_MODES.join(" or ")}, not "${mode}"; ignored.`);
  return null;
}

/**
 * The server's address as the WHATWG URL parser writes it (scheme and host in lower case, a default port
 * dropped), without a trailing slash: one form, so every test of it (`https:` for the CA) holds.
 */
export function normaliseUrl(value: string | null, from: string, warnings: string[]): string | null {
  if (!value) return null;
  let parsed: URL | null = null;
  try {
    parsed = /^https?:\/\/[^/\s]+/i.test(value) ? new URL(value) : null;
  } catch {
    parsed = null;
  }
  if (!parsed) {
    warnings.push(`${from} must be an http:// or https:// URL, not "${value}"; ignored.`);
    return null;
  }
  return parsed.href.replace(/\/+$/, "");
}

const NO_TOKEN = { token: null, tokenFrom: null } as const;
/** Scheme, host and port alike: the server a token may go to, whatever path the URL adds. */
const sameOrigin = (a: string, b: string): boolean => new URL(a).origin === new URL(b).origin;

/**
 * The token to send to `url`, and where it came from. A URL a repository named is never sent the user's
 * token, from the environment or the file alike. BATON_TOKEN goes as given to the user's own URL. The
 * file's token belongs to the server it was saved with (`baton login` writes them together; install.sh
 * drops it when the url changes): BATON_URL naming another server goes without it, as with no token.
 * A file with a token and no url has no server to hold it to: it goes to BATON_URL.
 */
function chooseToken(
  c: { url: string | null; ownUrl: string | null; envUrl: string | null; savedUrl: string | null; user: FileConfig; userConfigFile: string | null; repoConfigFile: string | null },
  warnings: string[],
): Pick<BatonConfig, "token" | "tokenFrom"> {
  const envToken = str(process.env.BATON_TOKEN);
  const saved = str(c.user.token);
  if (!c.ownUrl && c.url) {
    if (envToken || saved) warnings.push(`${c.repoConfigFile} names the server ${c.url}; your token is not sent to a server a repository chose: set BATON_URL, or url in ${configFileName(c.userConfigFile)}, to use it.`);
    return NO_TOKEN;
  }
  if (envToken) return { token: envToken, tokenFrom: "env" };
  if (!saved) return NO_TOKEN;
  const savedWith = str(c.user.url);
  if (c.envUrl && savedWith) {
    if (!c.savedUrl || !sameOrigin(c.savedUrl, c.envUrl)) {
      warnings.push(`the token in ${configFileName(c.userConfigFile)} is for ${c.savedUrl ?? savedWith}; it is not sent to ${c.envUrl} (BATON_URL): run \`baton login\`, or set BATON_TOKEN, for that server.`);
      return NO_TOKEN;
    }
  }
  return { token: saved, tokenFrom: "file" };
}

/**
 * Configuration, each value from the first place that has it: the environment (BATON_URL,
 * BATON_TOKEN, BATON_TIMEOUT_MS, BATON_PROMPT_TIMEOUT_MS, BATON_MODE, BATON_PROJECT, BATON_SUMMARISER, BATON_CA_FILE), then the user's config
 * file, then `.baton.json` in the repository. A repository file may name the project, a pinned task,
 * the URL, the timeout and the mode, but never a token or a command to run: cloning a repository must
 * not make the hooks execute something or send the token elsewhere than the user said. So a URL from
 * the repository's file goes without the user's token (a warning says why), and the file's token goes
 * only to the server it was saved with (chooseToken).
 */
export function loadConfig(cwd: string = process.cwd()): BatonConfig {
  const warnings: string[] = [];
  const env = process.env;
  const userConfigFile = userConfigPath();
  const user = userConfigFile ? readJson(userConfigFile, warnings) : {};
  const { repoRoot, repoConfigFile } = findRepo(cwd);
  const repo = repoConfigFile ? readJson(repoConfigFile, warnings) : {};

  const envUrl = normaliseUrl(str(env.BATON_URL), "BATON_URL", warnings);
  // The file's url, normalised once: the token's server (chooseToken); a bad one is worth a warning only when it is used.
  const savedUrl = normaliseUrl(str(user.url), `url in ${userConfigFile}`, envUrl ? [] : warnings);
  const ownUrl = envUrl ?? savedUrl;
  const url = ownUrl ?? normaliseUrl(str(repo.url), `url in ${repoConfigFile}`, warnings);
  const timeout = (envName: string, key: string, fallback: number) =>
    parseTimeout(env[envName], envName, warnings, fallback) ??
    parseTimeout(user[key], `${key} in ${userConfigFile}`, warnings, fallback) ??
    parseTimeout(repo[key], `${key} in ${repoConfigFile}`, warnings, fallback) ??
    fallback;
  const timeoutMs = timeout("BATON_TIMEOUT_MS", "timeoutMs", DEFAULT_TIMEOUT_MS);
  const promptTimeoutMs = timeout("BATON_PROMPT_TIMEOUT_MS", "promptTimeoutMs", DEFAULT_PROMPT_TIMEOUT_MS);
  // Whether the host injects identity itself is a fact of the user's machine: an explicit setting
  // outranks the PAI_DIR guess, and the user's file outranks the repository's.
  const mode =
    parseMode(env.BATON_MODE, "BATON_MODE", warnings) ??
    parseMode(user.mode, `mode in ${userConfigFile}`, warnings) ??
    parseMode(repo.mode, `mode in ${repoConfigFile}`, warnings) ??
    (str(env.PAI_DIR) ? "complement" : "full");
  const { token, tokenFrom } = chooseToken({ url, ownUrl, envUrl, savedUrl, user, userConfigFile, repoConfigFile }, warnings);
  return {
    url,
    token,
    tokenFrom,
    timeoutMs,
    promptTimeoutMs,
    mode,
    project: str(env.BATON_PROJECT) ?? str(repo.project),
    // Only a repository's own file turns injection off, and only with an explicit false.
    inject: repo.inject !== false,
    task: str(repo.task),
    summariser: str(env.BATON_SUMMARISER) ?? user.summariser ?? null,
    caFile: homePath(str(env.BATON_CA_FILE) ?? str(user.caFile)),
    cwd: path.resolve(cwd),
    repoRoot,
    userConfigFile,
    repoConfigFile,
    warnings,
  };
}
