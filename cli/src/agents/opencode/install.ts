import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { MergeError } from "../../commands/merge-settings";
import type { InstallContext, Installer, PlannedFile } from "../agent";
import { folderIfAny, onPath } from "../find-agent";
import { HOOK_TIMEOUT_SECONDS } from "../../../../lib/rules";
import { commandWords, readConfigText } from "../install-files";
import { JsoncError, parseJsonc, setJsonc } from "./jsonc-edit";
import type { PluginSettings } from "./plugin-hooks";

// `baton install opencode`: opencode runs no hook commands, only JS plugins from the plugins folder of
// its config (~/.config/opencode/plugins/, or a repository's .opencode/plugins/), so Baton's hooks are
// one plugin file (plugin.ts, built by cli/build.mjs) with the command and time limits baked in; the
// MCP server goes into opencode.json (or opencode.jsonc, comments kept) as a local (stdio) server
// running `baton mcp`. opencode asks nobody to trust a plugin or a config folder: there is nothing to confirm.

/** The built plugin (cli/build.mjs defines it in both CLI builds). */
declare const BATON_OPENCODE_PLUGIN: string | undefined;

/** The plugin as cli/build.mjs built it; run from source (tests), the last build's cli/dist/opencode-plugin.js. */
export function pluginText(): string {
  if (typeof BATON_OPENCODE_PLUGIN === "string") return BATON_OPENCODE_PLUGIN;
  const built = path.resolve(import.meta.dirname ?? ".", "../../../dist/opencode-plugin.js");
  if (!existsSync(built)) throw new Error(`the opencode plugin is not built (${built}): run npm run build:cli`);
  return readFileSync(built, "utf8");
}

/** The sentinel plugin.ts replaces with its settings. */
const BAKED = '"__BATON_SETTINGS__"';

/** The plugin file for `command`: its settings baked in where plugin.ts reads them. */
export function bakedPlugin(command: string): string {
  const text = pluginText();
  if (!text.includes(BAKED)) throw new Error("the built opencode plugin has no settings to fill in");
  const settings: PluginSettings = {
    command,
    limitsMs: { sessionStart: HOOK_TIMEOUT_SECONDS.sessionStart * 1000, prompt: HOOK_TIMEOUT_SECONDS.prompt * 1000, preCompact: HOOK_TIMEOUT_SECONDS.preCompact * 1000 },
  };
  return text.replace(BAKED, JSON.stringify(JSON.stringify(settings)));
}

/** opencode's user config folder: `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode` (it follows the XDG base directories). */
const userDir = (home: string) => {
  const xdg = process.env.XDG_CONFIG_HOME?.trim();
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, ".config"), "opencode");
};
const configDir = (context: InstallContext) => (context.scope === "user" ? userDir(context.home) : path.join(context.root, ".opencode"));

/** The config file Baton merges into: the user's opencode.jsonc when there is one, else opencode.json (a repository's sits at its root). */
function configFile(context: InstallContext): string {
  const dir = context.scope === "user" ? configDir(context) : context.root;
  const jsonc = path.join(dir, "opencode.jsonc");
  return existsSync(jsonc) ? jsonc : path.join(dir, "opencode.json");
}

function planMcp(file: string, command: string): PlannedFile {
  const before = readConfigText(file);
  const server = { type: "local", command: [...commandWords(command), "mcp"], enabled: true };
  const text = before?.trim() ? before : '{\n  "$schema": "https://opencode.ai/config.json"\n}\n';
  let parsed: unknown;
  try {
    parsed = parseJsonc(text);
  } catch (error) {
    throw new MergeError(`${file} does not parse (${(error as Error).message})`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new MergeError(`${file} is not a JSON object`);
  const mcp = (parsed as { mcp?: unknown }).mcp;
  if (mcp !== undefined && (!mcp || typeof mcp !== "object" || Array.isArray(mcp))) throw new MergeError(`${file}: "mcp" is not an object`);
  const existing = (mcp as Record<string, unknown> | undefined)?.baton;
  if (JSON.stringify(existing) === JSON.stringify(server)) return { file, before, after: before!, changes: [] };
  let after: string;
  try {
    after = setJsonc(text, ["mcp", "baton"], server);
  } catch (error) {
    if (error instanceof JsoncError) throw new MergeError(`${file}: ${error.message}`);
    throw error;
  }
  return { file, before, after, changes: [existing === undefined ? 'added the "baton" MCP server (baton mcp)' : 'updated the "baton" MCP server'] };
}

function planPlugin(context: InstallContext): PlannedFile {
  const file = path.join(configDir(context), "plugins", "baton.js");
  const before = readConfigText(file);
  const after = bakedPlugin(context.command);
  if (before === after) return { file, before, after, changes: [] };
  return { file, before, after, changes: [before === null ? "added Baton's plugin (session start, prompt, pre-compact, stop)" : "updated Baton's plugin"] };
}

export const opencodeInstaller: Installer = {
  scopes: ["user", "repo"],
  plan(context) {
    return {
      files: [planPlugin(context), planMcp(configFile(context), context.command)],
      notes: [
        "opencode loads plugins when it starts: restart running opencode sessions.",
        "opencode npm-installs @opencode-ai/plugin into its config folder at every start until that has worked once, and waits for it before loading any plugin: offline, a start waits out npm's retries (75-90 s) first.",
      ],
    };
  },
  found: ({ home }) => onPath("opencode") ?? folderIfAny(userDir(home)),
};
