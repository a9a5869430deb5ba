import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Installer, InstallContext } from "../agent";
import { MergeError, mergeHooks, mergeMcp, type HookEntry, type Json } from "../../commands/merge-settings";
import { folderIfAny, onPath } from "../find-agent";
import { HOOK_TIMEOUT_SECONDS } from "../../../../lib/rules";
import { planJson, stdioMcpServer } from "../install-files";
import { hookCommand } from "../hook-command";

/** Gemini CLI's hook time limits are in milliseconds. */
const MS = 1000;

/**
 * Baton's hooks and MCP server in Gemini CLI's settings.json (`~/.gemini/settings.json`, or the
 * repository's `.gemini/settings.json`), Gemini CLI 0.61's names and shape:
 * - SessionStart → session-start, BeforeAgent (after the user's prompt, before the model) → prompt.
 * - AfterAgent (the end of every turn) → stop: Gemini CLI does not wait for its SessionEnd hooks, and in
 *   `gemini -p` the process exits right after firing them, so the handoff is written at each turn's end.
 *   SessionEnd → session-end stays as well: the server keeps one handoff per session and the worker sends
 *   a proposal once, so it costs nothing (it fired three times at one /quit here), and covers a session
 *   that ends between turns.
 * - PreCompress is left out: Gemini CLI fires it before it checks whether the history needs compressing
 *   (`ChatCompressionService.compress`), so at every model request, interactive and `-p` alike (seen: once
 *   per prompt of a two-prompt terminal session, and per tool round in `-p`, nothing compressed); a
 *   checkpoint there would be one per request, not one before a compaction.
 */
function hookEntries(command: string): (HookEntry & { seconds: number })[] {
  const entry = (event: string, subcommand: string, seconds: number) => ({ event, command: hookCommand(command, subcommand, "gemini"), subcommand, seconds });
  return [
    entry("SessionStart", "session-start", HOOK_TIMEOUT_SECONDS.sessionStart),
    entry("BeforeAgent", "prompt", HOOK_TIMEOUT_SECONDS.prompt),
    entry("AfterAgent", "stop", HOOK_TIMEOUT_SECONDS.sessionEnd),
    entry("SessionEnd", "session-end", HOOK_TIMEOUT_SECONDS.sessionEnd),
  ];
}

/**
 * What Gemini CLI's hooks have beyond Claude Code's shape: the time limit in milliseconds, and a name
 * (which `/hooks disable <name>` and Gemini's warning about new project hooks show). Set where Baton's
 * hook has none; a limit or name the user set stays.
 */
function geminiFields(settings: Json, entries: ReturnType<typeof hookEntries>, added: Set<string>): string[] {
  const changes: string[] = [];
  const hooks = settings.hooks as Record<string, { hooks?: Json[] }[]>;
  for (const { event, command, subcommand, seconds } of entries) {
    for (const hook of hooks[event]!.flatMap((group) => (Array.isArray(group?.hooks) ? group.hooks : []))) {
      if (!hook || typeof hook !== "object" || hook.command !== command) continue;
      if (hook.timeout === undefined) {
        hook.timeout = seconds * MS;
        if (!added.has(event)) changes.push(`gave the ${event} hook a time limit of ${seconds} s`);
      }
      if (hook.name === undefined) hook.name = `baton-${subcommand}`;
    }
  }
  return changes;
}

/** Whether JSON text holds `//` or `/* … *\/` comments outside its strings (Gemini CLI reads settings.json as JSON with comments). */
export function hasJsonComments(text: string): boolean {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) return true;
  }
  return false;
}

const settingsPath = ({ scope, home, root }: InstallContext): string => path.join(scope === "user" ? home : root, ".gemini", "settings.json");

function merge(command: string) {
  return (json: Json) => {
    const entries = hookEntries(command);
    // Without a timeout here: mergeHooks writes Claude Code's seconds, and Gemini CLI reads milliseconds.
    const hooks = mergeHooks(json, entries.map(({ event, command, subcommand }) => ({ event, command, subcommand })));
    const added = new Set(entries.filter((e) => hooks.changes.includes(`added the ${e.event} hook`)).map((e) => e.event));
    const named = geminiFields(hooks.settings, entries, added);
    // A stdio server: Gemini CLI starts `command` with `args` itself, without a shell.
    const mcp = mergeMcp(hooks.settings, stdioMcpServer(command));
    return { json: mcp.mcp, changes: [...hooks.changes, ...named, ...mcp.changes] };
  };
}

/** Gemini CLI 0.61: folder trust is on by default, and an untrusted folder runs no hooks at all (HookRegistry.processHooksFromConfig). */
const TRUST_NOTE =
  "Gemini CLI runs hooks, its user-wide ones included, and starts MCP servers only in folders it trusts. " +
  'The first time you start gemini in a repository it asks "Do you trust the files in this folder?": choose "Trust folder" ' +
  '(or "Trust parent folder" for the folder that holds your repositories) and it restarts with Baton on. /permissions changes ' +
  "the choice later; ~/.gemini/trustedFolders.json keeps it. gemini -p in a folder not yet trusted stops with an error instead of asking.";
const PROJECT_HOOKS_NOTE =
  "Gemini CLI warns once about each new project hook (by its name and command), then runs it; a teammate who pulls .gemini/settings.json sees that warning too.";

export const geminiInstaller: Installer = {
  scopes: ["user", "repo"],
  plan(context) {
    const file = settingsPath(context);
    try {
      const planned = planJson(file, merge(context.command));
      const off = (JSON.parse(planned.after || "{}") as { hooksConfig?: { enabled?: unknown } }).hooksConfig?.enabled === false;
      const notes = [TRUST_NOTE, ...(context.scope === "repo" ? [PROJECT_HOOKS_NOTE] : []), ...(off ? [`Hooks are turned off in ${file} (hooksConfig.enabled is false): Baton's hooks run once they are on again.`] : [])];
      return { files: [planned], notes };
    } catch (error) {
      // Gemini CLI reads settings.json as JSON with comments; rewriting it as JSON would drop them.
      if (error instanceof MergeError && existsSync(file) && hasJsonComments(readFileSync(file, "utf8"))) {
        throw new MergeError(`${file} has comments, which Baton would lose by rewriting it: remove them, or add Baton's entries by hand`);
      }
      throw error;
    }
  },
  found: ({ home }) => onPath("gemini") ?? folderIfAny(path.join(home, ".gemini")),
};
