import { accessSync, constants, existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { homeFolder, NO_HOME } from "../config/home";
import { AGENTS } from "../agents/agents";
import type { InstallContext, InstallPlan, PlannedFile } from "../agents/agent";
import { onPath } from "../agents/find-agent";
import { loadConfig, normaliseUrl } from "../config/load-config";
import { updateUserConfig } from "../config/user-config-file";
import { CliError, EXIT } from "../exit-codes";
import { parseOptions } from "../output/parse-options";
import { writeWhole } from "../output/write-whole";
import { note, printResult } from "../output/print";
import { AGENT_NAMES, isAgentName, type AgentName } from "../../../lib/rules";
import { MergeError } from "./merge-settings";
import { unifiedDiff } from "./unified-diff";
import { shellWord } from "../text/shell-word";

/**
 * What the hooks run: `baton` when the baton on PATH is this very CLI (installed by install.sh, so
 * the same line works for everyone on the team who installed it), else this file by its absolute
 * path (a checkout, or a copy not on PATH), so the hooks work without any install. Never an npm
 * package name: the npm package called baton belongs to somebody else.
 */
export function defaultCommand(): string {
  // Through node_modules/.bin the script is a symlink: name the file itself.
  const bin = realpathSync(path.resolve(process.argv[1]!));
  if (onPath("baton") === bin) return "baton";
  return `node ${commandWord(bin)}`;
}

/** The CLI's path as one word of the hook command (shellWord), or a usage error: --command says what to run instead. */
function commandWord(file: string): string {
  const word = shellWord(file);
  if (word === null) throw new CliError(`the CLI's path ${JSON.stringify(file)} cannot be written into a hook command: pass --command with how to run it.`, EXIT.usage);
  return word;
}

/** Where the installer writes, from the options and the configuration. */
export function installContext(values: { url?: string; command?: string; scope?: string }, scopes: readonly ("user" | "repo")[]): InstallContext {
  const config = loadConfig();
  for (const warning of config.warnings) note(warning);
  const url = values.url === undefined ? config.url : normaliseUrl(values.url.trim(), "--url", []);
  if (!url) {
    throw new CliError("the hooks and the MCP entry need the server's URL: set BATON_URL (or url in ~/.config/baton/config.json), or pass --url.", EXIT.usage);
  }
  const scope = values.scope ?? scopes[0]!;
  if (scope !== "user" && scope !== "repo") throw new CliError(`--scope is user or repo, not "${scope}".`, EXIT.usage);
  if (!scopes.includes(scope)) throw new CliError(`this agent's Baton setup goes in its ${scopes.join(" or ")} configuration, not ${scope}.`, EXIT.usage);
  return { command: values.command?.trim() || defaultCommand(), url, scope, home: homeOrStop(), root: config.repoRoot ?? config.cwd, userConfigFile: config.userConfigFile };
}

/** The home folder the agents' user configuration is under; none (an empty or relative HOME) stops the install. */
function homeOrStop(): string {
  const home = homeFolder();
  if (!home) throw new CliError(`${NO_HOME}: the agents' configuration is under it.`, EXIT.usage);
  return home;
}

/** The installer's plan for `agent`; a config that cannot be merged stops everything before anything is written. */
export async function planInstall(agent: AgentName, context: InstallContext): Promise<InstallPlan> {
  const installer = await AGENTS[agent].installer();
  try {
    return installer.plan(context);
  } catch (error) {
    if (error instanceof MergeError) throw new CliError(`${error.message}; fix it first. Nothing was written.`, EXIT.failure);
    throw error;
  }
}

/** A file's name as the user reads it: under the repository or HOME when it is. */
function shown(file: string, context: InstallContext): string {
  for (const [base, prefix] of [[context.root, ""], [context.home, "~/"]] as const) {
    const rel = path.relative(base, file);
    if (rel && !rel.startsWith("..") && !path.isAbsolute(rel)) return `${prefix}${rel}`;
  }
  return file;
}

/** The nearest folder of `file` that exists (where a missing file and its folders would be made). */
function existingParent(file: string): string {
  let dir = path.dirname(file);
  while (!existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/**
 * Writes the planned files that change. Every one is checked writable first, so that one file refused
 * (read-only, another user's) does not leave the others changed: half an install (Codex's hooks without
 * their trust) fails silently in the agent. A write that still fails says which files were written.
 */
function writePlanned(files: PlannedFile[], context: InstallContext): void {
  const changing = files.filter((p) => p.changes.length);
  for (const p of changing) {
    // The file itself (a read-only one is the user's say), and the folder its new version is written in
    // before it replaces it (writeWhole).
    const file = existsSync(p.file) ? realpathSync(p.file) : null;
    for (const target of [file, existingParent(file ?? p.file)]) {
      if (target === null) continue;
      try {
        accessSync(target, constants.W_OK);
      } catch {
        throw new CliError(`${shown(p.file, context)} cannot be written (${target === file ? "the file" : `the folder ${target}`} is not writable): nothing was written.`, EXIT.failure);
      }
    }
  }
  const written: string[] = [];
  for (const p of changing) {
    try {
      writeWhole(p.file, p.after);
    } catch (error) {
      const done = written.length ? `; already written: ${written.join(", ")}` : "; nothing was written";
      throw new CliError(`${shown(p.file, context)} could not be written (${(error as Error).message})${done}. Run the install again once it can be.`, EXIT.failure);
    }
    written.push(shown(p.file, context));
  }
}

/**
 * `baton install <agent> [--dry-run] [--scope user|repo] [--command PREFIX] [--url URL]`: Baton's hooks
 * and its MCP server into the agent's configuration, merged into what is there (which stays); running
 * it again changes nothing. `--dry-run` prints the diff instead.
 */
export async function runInstall(args: string[]): Promise<number> {
  const [target, ...rest] = args;
  if (!isAgentName(target)) throw new CliError(`unknown install target "${target ?? ""}": use baton install ${AGENT_NAMES.join("|")}.`, EXIT.usage);
  const { values } = parseOptions(rest, { "dry-run": { type: "boolean" }, command: { type: "string" }, url: { type: "string" }, scope: { type: "string" } });
  const installer = await AGENTS[target].installer();
  const context = installContext(values, installer.scopes);
  const { files, notes } = await planInstall(target, context);

  if (values["dry-run"]) {
    const diffs = files
      .filter((p) => p.changes.length)
      .map((p) => unifiedDiff(p.before ?? "", p.after, p.before === null ? "/dev/null" : `a/${shown(p.file, context)}`, `b/${shown(p.file, context)}`));
    process.stdout.write(diffs.length ? diffs.join("") : "No changes: Baton is already installed here.\n");
    return EXIT.ok;
  }

  writePlanned(files, context);
  // The hooks and `baton mcp` read the server from the config: a --url given here goes there (as login puts it).
  if (values.url !== undefined) notes.push(`${context.url} kept as the server in ${updateUserConfig({ url: context.url }, context.userConfigFile)}.`);
  printResult({ root: context.root, scope: context.scope, files: files.map((p) => ({ path: p.file, changed: p.changes.length > 0, changes: p.changes })), notes }, () =>
    [...files.map((p) => (p.changes.length ? `${shown(p.file, context)}: ${p.changes.join(", ")}.` : `${shown(p.file, context)}: already set up, unchanged.`)), ...notes].join("\n"),
  );
  return EXIT.ok;
}
