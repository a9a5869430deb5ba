import { existsSync, realpathSync } from "node:fs";
import { readPart } from "../input/read-part";
import { CliError, EXIT } from "../exit-codes";
import { MAX_CONFIG_BYTES, parseConfigText, userConfigPath } from "./load-config";
import { NO_HOME } from "./home";
import { writeProblem } from "../output/write-problem";
import { writeWhole } from "../output/write-whole";

/** The file holds a token: readable and writable by its owner alone, as install.sh leaves it too. */
const PRIVATE_FILE = 0o600;
const PRIVATE_DIR = 0o700;

/** The user's config file, or a clear error when there is none to write (no home folder, config/home.ts). */
function writable(file: string | null): string {
  if (!file) throw new CliError(`${NO_HOME} (or XDG_CONFIG_HOME), so the config file has a place: ~/.config/baton/config.json.`, EXIT.usage);
  return file;
}

function readObject(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  let value: unknown;
  try {
    const part = readPart(file, MAX_CONFIG_BYTES, "start");
    if (!part || part.partial) throw new Error(part ? "too large" : "not a regular file");
    const text = part.bytes.toString("utf8");
    value = text.trim() ? parseConfigText(text) : {};
  } catch (error) {
    throw new CliError(`${file} cannot be read as JSON (${(error as Error).message}): fix or remove it, then run this again.`, EXIT.failure);
  }
  if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new CliError(`${file} is not a JSON object: fix or remove it, then run this again.`, EXIT.failure);
}

/**
 * Throws, saying why, when the user's config file could not be updated (not a JSON object, a folder
 * this user cannot write in): checked before a token is made for it.
 */
export function checkUserConfig(given: string | null = userConfigPath()): void {
  const file = writable(given);
  const target = existsSync(file) ? realpathSync(file) : file;
  readObject(target);
  const problem = writeProblem(target);
  if (problem) throw new CliError(`cannot save a token in ${file}: ${problem}. Make it writable, or set XDG_CONFIG_HOME to a folder you can write in, then run this again.`, EXIT.failure);
}

/**
 * Sets keys of the user's config file (undefined removes one) and keeps every other key, written whole
 * (writeWhole: never half a file; a symlinked one where the link points). Mode 0600 whatever the file
 * had: it holds a token.
 */
export function updateUserConfig(changes: Record<string, string | undefined>, given: string | null = userConfigPath()): string {
  const file = writable(given);
  const target = existsSync(file) ? realpathSync(file) : file;
  const config = readObject(target);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete config[key];
    else config[key] = value;
  }
  writeWhole(target, `${JSON.stringify(config, null, 2)}\n`, { mode: PRIVATE_FILE, dirMode: PRIVATE_DIR });
  return file;
}
