import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Installer } from "../agent";
import { MergeError, mergeMcp, ownHooks, type Json } from "../../commands/merge-settings";
import { folderIfAny, onPath } from "../find-agent";
import { HOOK_TIMEOUT_SECONDS } from "../../../../lib/rules";
import { planJson, stdioMcpServer } from "../install-files";
import { copilotHome } from "./copilot-home";
import { hookCommand } from "../hook-command";

/**
 * Baton's hooks go into a file of Baton's own, `~/.copilot/hooks/baton.json`: Copilot CLI loads every
 * `*.json` there as user-level hooks, which run in every folder without the folder trust that
 * `<repo>/.github/hooks/` needs. Its format: `{"version":1,"hooks":{"<event>":[{"type":"command",
 * "bash":"…","timeoutSec":N}]}}`, the limit in seconds.
 *
 * - sessionStart: the start context. Copilot sends it to the model as a message of its own.
 * - userPromptSubmitted: the prompt stage; Copilot adds its context to the user's message in `<system_reminder>`.
 * - preCompact: a real compaction event (it fires before Copilot compacts, `trigger` auto or manual),
 *   so it gets the checkpoint.
 * - sessionEnd: the handoff. Copilot waits for it, and since 1.0.25 fires it once per session in an
 *   interactive run (once a run with -p), so agentStop (every turn) stays unhooked.
 */
const HOOKS = [
  { event: "sessionStart", subcommand: "session-start", timeoutSec: HOOK_TIMEOUT_SECONDS.sessionStart },
  { event: "userPromptSubmitted", subcommand: "prompt", timeoutSec: HOOK_TIMEOUT_SECONDS.prompt },
  { event: "preCompact", subcommand: "pre-compact", timeoutSec: HOOK_TIMEOUT_SECONDS.preCompact },
  { event: "sessionEnd", subcommand: "session-end", timeoutSec: HOOK_TIMEOUT_SECONDS.sessionEnd },
] as const;

/** The hook file format Copilot CLI reads. */
const HOOKS_VERSION = 1;

/** Copilot passes on one hook's context per event (the last one's): another hook that adds context at these hides Baton's, or Baton hides it. */
const CONTEXT_EVENTS = ["sessionStart", "userPromptSubmitted"] as const;

const isObject = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);

/** Baton's hooks merged into a Copilot hook file: one each, its command and time limit set; other hooks stay. */
export function mergeCopilotHooks(input: Json, command: string): { json: Json; changes: string[] } {
  const json = structuredClone(input);
  const changes: string[] = [];
  if (json.version === undefined) {
    json.version = HOOKS_VERSION;
    changes.push(`set the hook file's version to ${HOOKS_VERSION}`);
  } else if (json.version !== HOOKS_VERSION) {
    throw new MergeError(`"version" is ${JSON.stringify(json.version)}, not ${HOOKS_VERSION}, the hook format Copilot CLI reads`);
  }
  json.hooks ??= {};
  if (!isObject(json.hooks)) throw new MergeError(`"hooks" is not an object`);
  const hooks = json.hooks;
  const own = HOOKS.map(({ event, subcommand }) => ({ event, subcommand, command: hookCommand(command, subcommand, "copilot") }));
  const isOwn = ownHooks();
  for (const [i, { event, timeoutSec }] of HOOKS.entries()) {
    const wanted = own[i]!.command;
    hooks[event] ??= [];
    const list = hooks[event];
    if (!Array.isArray(list)) throw new MergeError(`"hooks.${event}" is not a list`);
    let found = false;
    hooks[event] = list.filter((hook: unknown) => {
      if (!isObject(hook) || !isOwn(hook.bash, own[i]!)) return true;
      if (found) {
        changes.push(`removed a duplicate ${event} hook`);
        return false;
      }
      found = true;
      if (hook.bash !== wanted) {
        hook.bash = wanted;
        changes.push(`updated the ${event} hook`);
      }
      if (hook.timeoutSec === undefined) {
        hook.timeoutSec = timeoutSec;
        changes.push(`gave the ${event} hook a time limit of ${timeoutSec} s`);
      }
      return true;
    });
    if (!found) {
      (hooks[event] as unknown[]).push({ type: "command", bash: wanted, timeoutSec });
      changes.push(`added the ${event} hook`);
    }
  }
  return { json, changes };
}

/** Baton's stdio MCP server: `baton mcp`, which reads the token from the CLI's own config (none here). */
export function copilotMcpServer(command: string): Json {
  return { type: "local", ...stdioMcpServer(command), tools: ["*"] };
}

/** Other hook files in the folder that add context where Baton does: Copilot keeps only one hook's context per event. */
function contextClashes(dir: string, own: string): string[] {
  if (!existsSync(dir)) return [];
  const clashes: string[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".json") || path.join(dir, name) === own) continue;
    try {
      const hooks: unknown = (JSON.parse(readFileSync(path.join(dir, name), "utf8")) as Json).hooks;
      const events = CONTEXT_EVENTS.filter((e) => isObject(hooks) && Array.isArray(hooks[e]) && hooks[e].length > 0);
      if (events.length) clashes.push(`${name} (${events.join(", ")})`);
    } catch {
      // Copilot's to complain about, not Baton's.
    }
  }
  return clashes;
}

export const copilotInstaller: Installer = {
  scopes: ["user"],
  plan({ command, home }) {
    const dir = copilotHome(home);
    const hookFile = path.join(dir, "hooks", "baton.json");
    const hooks = planJson(hookFile, (json) => mergeCopilotHooks(json, command));
    const mcp = planJson(path.join(dir, "mcp-config.json"), (json) => {
      const { mcp: merged, changes } = mergeMcp(json, copilotMcpServer(command));
      return { json: merged, changes };
    });
    const clashes = contextClashes(path.join(dir, "hooks"), hookFile);
    const notes = [
      "Copilot CLI loads hooks and MCP servers when it starts: start a new session to get Baton's context.",
      ...(clashes.length
        ? [`Copilot CLI passes on only one hook's context per event, and these hook files add some at the same events as Baton: ${clashes.join("; ")}. Keep one of them.`]
        : []),
    ];
    return { files: [hooks, mcp], notes };
  },
  found: ({ home }) => onPath("copilot") ?? folderIfAny(copilotHome(home)),
};
