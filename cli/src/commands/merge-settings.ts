/**
 * Merging Baton's entries into JSON agent configs in Claude Code's shape (Codex's hooks.json and
 * Gemini's settings.json share it) without losing or duplicating what is there: `.claude/settings.json` hooks (`{ hooks: { SessionStart: [{ matcher?, hooks: [{ type:
 * "command", command, timeout? }] }] } }`) and `.mcp.json` (`{ mcpServers: { name: {...} } }`).
 */
import { readHookCommand } from "../agents/hook-command";

export type Json = Record<string, unknown>;

/** `timeout`: Claude Code's own limit for the hook, in seconds; set where the hook has none (one the user set stays). */
export type HookEntry = { event: string; command: string; subcommand: string; timeout?: number };

export class MergeError extends Error {}

const isObject = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);

/**
 * A hook command that runs `baton … hook <subcommand>`, however baton is invoked (npx, a path, node
 * …/baton.mjs): the name starts the command, a word or a path's last part (another tool's `my-baton`
 * or `baton.old` is not it).
 */
export function isBatonHook(command: unknown, subcommand: string): boolean {
  return typeof command === "string" && new RegExp(`(?:^|[\\s/"'])baton(?:\\.mjs)?["']?\\s+hook\\s+${subcommand}(?:\\s|$)`).test(command);
}

/** One of Baton's hooks as an installer writes it. */
type OwnHook = { event: string; command: string; subcommand: string };

/**
 * Which hook commands of a config are Baton's own, to update in place, never to add a second time:
 * - the very command being written (`--command bt`, `node …/dist/baton.js`, a copy of any name);
 * - one that runs baton by its name (isBatonHook: the plugin's, `npx baton …`, an older checkout's path);
 * - one that ends in ` hook <subcommand> --agent <agent>` with the agent written here: a flag of
 *   Baton's own, which every agent's hooks but Claude Code's carry;
 * - one whose runner `earlier` knows as an earlier install's (Claude Code's: what its "baton" MCP entry runs).
 * Nothing else, whatever its shape: another tool's `audit-log hook session-start` and `… hook session-end`
 * at Baton's events are that tool's, however many of Baton's events it hooks.
 */
export function ownHooks(earlier: (runner: string) => boolean = () => false): (command: unknown, entry: OwnHook) => boolean {
  return (command, entry) => {
    if (command === entry.command || isBatonHook(command, entry.subcommand)) return true;
    const tail = readHookCommand(command, entry.subcommand);
    if (!tail) return false;
    const agent = readHookCommand(entry.command, entry.subcommand)?.agent ?? null;
    return tail.agent === agent && (agent !== null || earlier(tail.runner));
  };
}

/** `earlier`: whether a hook's runner is one an earlier install of Baton's wrote (ownHooks). */
export function mergeHooks(input: Json, entries: HookEntry[], earlier?: (runner: string) => boolean): { settings: Json; changes: string[] } {
  const settings = structuredClone(input);
  const changes: string[] = [];
  settings.hooks ??= {};
  if (!isObject(settings.hooks)) throw new MergeError(`"hooks" is not an object`);
  const hooks = settings.hooks;
  const isOwn = ownHooks(earlier);
  for (const entry of entries) {
    hooks[entry.event] ??= [];
    const groups = hooks[entry.event];
    if (!Array.isArray(groups)) throw new MergeError(`"hooks.${entry.event}" is not a list`);
    let found = false;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      group.hooks = group.hooks.filter((hook: unknown) => {
        if (!isObject(hook) || !isOwn(hook.command, entry)) return true;
        if (found) {
          changes.push(`removed a duplicate ${entry.event} hook`);
          return false;
        }
        found = true;
        if (hook.command !== entry.command) {
          hook.command = entry.command;
          changes.push(`updated the ${entry.event} hook`);
        }
        if (entry.timeout !== undefined && hook.timeout === undefined) {
          hook.timeout = entry.timeout;
          changes.push(`gave the ${entry.event} hook a time limit of ${entry.timeout} s`);
        }
        return true;
      });
    }
    // A group emptied of a duplicate would be a hook group with nothing to run.
    hooks[entry.event] = groups.filter((g) => !(isObject(g) && Array.isArray(g.hooks) && g.hooks.length === 0));
    if (!found) {
      const timeout = entry.timeout === undefined ? {} : { timeout: entry.timeout };
      (hooks[entry.event] as unknown[]).push({ hooks: [{ type: "command", command: entry.command, ...timeout }] });
      changes.push(`added the ${entry.event} hook`);
    }
  }
  return { settings, changes };
}

/**
 * How an MCP entry reaches its server. Baton's entry is always its own: an older install's HTTP entry
 * (`url` with a `${BATON_TOKEN}` header, which left a member whose token is in the config file with a
 * silent 401; Gemini's `httpUrl` or `tcp`, which it prefers to a command) is replaced whole by the stdio
 * bridge; keys beside these (env, timeout, trust) stay.
 */
const TRANSPORT_KEYS = new Set(["type", "url", "headers", "command", "args", "httpUrl", "tcp"]);

export function mergeMcp(input: Json, server: Json, name = "baton"): { mcp: Json; changes: string[] } {
  const mcp = structuredClone(input);
  mcp.mcpServers ??= {};
  if (!isObject(mcp.mcpServers)) throw new MergeError(`"mcpServers" is not an object`);
  const existing = mcp.mcpServers[name];
  if (existing !== undefined && !isObject(existing)) throw new MergeError(`"mcpServers.${name}" is not an object`);
  const merged: Json = { ...existing, ...server };
  for (const key of Object.keys(merged)) if (TRANSPORT_KEYS.has(key) && !Object.hasOwn(server, key)) delete merged[key];
  if (JSON.stringify(merged) === JSON.stringify(existing)) return { mcp, changes: [] };
  mcp.mcpServers[name] = merged;
  return { mcp, changes: [existing ? `updated the "${name}" MCP server` : `added the "${name}" MCP server`] };
}
