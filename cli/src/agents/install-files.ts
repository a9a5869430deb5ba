import { existsSync } from "node:fs";
import { readPart } from "../input/read-part";
import { MergeError, type Json } from "../commands/merge-settings";
import { parseConfigText } from "../config/load-config";
import type { PlannedFile } from "./agent";

const MAX_AGENT_CONFIG_BYTES = 16 * 1024 * 1024;

/**
 * Reading and planning an agent's JSON config files for its installer: the text as it is (null when
 * the file is new), parsed; a file that does not parse is an error that stops the install before
 * anything is written.
 */
export function readJsonConfig(file: string): { text: string | null; json: Json } {
  const text = readConfigText(file);
  if (text === null) return { text: null, json: {} };
  if (!text.trim()) return { text, json: {} };
  let json: unknown;
  try {
    json = parseConfigText(text);
  } catch (error) {
    throw new MergeError(`${file} is not valid JSON (${(error as Error).message})`);
  }
  if (json && typeof json === "object" && !Array.isArray(json)) return { text, json: json as Json };
  throw new MergeError(`${file} is not a JSON object`);
}

/** An agent's config file as text, null when there is none; one that is not a regular file (a folder, a FIFO) or is huge stops the install, named. */
export function readConfigText(file: string): string | null {
  if (!existsSync(file)) return null;
  const part = readPart(file, MAX_AGENT_CONFIG_BYTES, "start");
  if (!part) throw new MergeError(`${file} is not a regular file`);
  if (part.partial) throw new MergeError(`${file} is larger than ${MAX_AGENT_CONFIG_BYTES / 1024 / 1024} MiB, more than any agent's config`);
  return part.bytes.toString("utf8");
}

/** The file after `merge`, pretty-printed as JSON; unchanged text when the merge changed nothing. */
export function planJson(file: string, merge: (json: Json) => { json: Json; changes: string[] }): PlannedFile {
  const { text, json } = readJsonConfig(file);
  const merged = merge(json);
  const after = merged.changes.length ? JSON.stringify(merged.json, null, 2) + "\n" : (text ?? "");
  return { file, before: text, after, changes: merged.changes };
}

/**
 * A command line split into words as a POSIX shell would, for the command lines Baton writes
 * (shellWord): "…" (where \ escapes $ ` " \) and '…' quote, a bare \ escapes the next character,
 * quoted and bare parts of one word join; nothing is expanded. Every agent's stdio MCP entry and
 * Codex's are made of these words, since the agents start the program without a shell.
 */
export function commandWords(command: string): string[] {
  const words: string[] = [];
  for (const [word] of command.matchAll(/(?:"(?:[^"\\]|\\[\s\S])*"|'[^']*'|\\[\s\S]|[^\s"'\\])+/g)) {
    words.push(
      word.replace(/"((?:[^"\\]|\\[\s\S])*)"|'([^']*)'|\\([\s\S])/g, (_, double: string | undefined, single: string | undefined, escaped: string | undefined) =>
        double !== undefined ? double.replace(/\\([$`"\\])/g, "$1") : (single ?? escaped ?? ""),
      ),
    );
  }
  return words;
}

/**
 * Baton's MCP server as a stdio entry: `baton mcp`, the bridge, which finds the server and token as
 * every command does (BATON_URL and BATON_TOKEN, else the config file `baton login` writes), so no
 * secret is written into the agent's configuration and a token in the config file just works.
 */
export function stdioMcpServer(command: string): { command: string; args: string[] } {
  const [program, ...args] = commandWords(`${command} mcp`);
  return { command: program!, args };
}

/**
 * Whether a hook's runner is what a "baton" MCP entry runs (stdioMcpServer read back): an install writes
 * both from one command, so the entry of an install with another `--command` names that install's hooks.
 */
export function runsMcpEntry(entry: unknown): (runner: string) => boolean {
  const { command, args } = (entry && typeof entry === "object" ? entry : {}) as Json;
  if (typeof command !== "string" || !Array.isArray(args)) return () => false;
  const written = JSON.stringify([command, ...args]);
  return (runner) => JSON.stringify(commandWords(`${runner} mcp`)) === written;
}
