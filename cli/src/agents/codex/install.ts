import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import path from "node:path";
import { mergeHooks, MergeError, type Json } from "../../commands/merge-settings";
import type { InstallContext, Installer, InstallPlan, PlannedFile } from "../agent";
import { folderIfAny, onPath } from "../find-agent";
import { HOOK_TIMEOUT_SECONDS } from "../../../../lib/rules";
import { commandWords, planJson, readConfigText } from "../install-files";
import { setTable, TomlError, tomlString, tomlStrings } from "./toml-tables";
import { hookCommand } from "../hook-command";

/**
 * `baton install codex`: Baton's hooks into `~/.codex/hooks.json` (Codex reads Claude Code's hook
 * format there), and into `~/.codex/config.toml` the MCP server and the trust of those hooks. User
 * scope only: a repository's `.codex/` is read only in a project the user trusted, and each hook must
 * still be trusted by each user in their own config.toml, so a repository install would do nothing
 * until every teammate ran something here anyway.
 *
 * Events (Codex 0.169, measured with `codex exec` in test/integration/agent-codex.test.ts):
 * - SessionStart, UserPromptSubmit: their additionalContext reaches the model as developer messages;
 * - PreCompact: fires before a real compaction only (auto or /compact), so it checkpoints like Claude Code's;
 * - SessionEnd: `codex exec` waits for it (clamped to 3 s) before it exits, so the handoff is written
 *   once at the end; Stop (every turn) stays unhooked.
 */

/** Codex clamps a SessionEnd hook's time limit to 3 s, and warns at every start about a larger one. */
const CODEX_SESSION_END_CAP = 3;

/** The events Baton hooks: Codex's name, the label its trust keys use, the hook, Codex's time limit in seconds (hooks.json `timeout`). */
const EVENTS: { event: string; label: string; subcommand: string; timeout: number }[] = [
  { event: "SessionStart", label: "session_start", subcommand: "session-start", timeout: HOOK_TIMEOUT_SECONDS.sessionStart },
  { event: "UserPromptSubmit", label: "user_prompt_submit", subcommand: "prompt", timeout: HOOK_TIMEOUT_SECONDS.prompt },
  { event: "PreCompact", label: "pre_compact", subcommand: "pre-compact", timeout: HOOK_TIMEOUT_SECONDS.preCompact },
  { event: "SessionEnd", label: "session_end", subcommand: "session-end", timeout: Math.min(HOOK_TIMEOUT_SECONDS.sessionEnd, CODEX_SESSION_END_CAP) },
];

/** Codex's timeout when a hook sets none, in seconds. */
const CODEX_DEFAULT_TIMEOUT = 600;
/** Events whose matcher Codex ignores (and leaves out of the trust hash). */
const NO_MATCHER = new Set(["UserPromptSubmit", "Stop"]);

/** What `baton mcp` needs from the environment when the CLI's config is not in a file; Codex passes a stdio server only the variables it names. */
const MCP_ENV_VARS = ["BATON_URL", "BATON_TOKEN", "XDG_CONFIG_HOME"];

/** `$CODEX_HOME` (which Codex resolves to its real path), else `~/.codex`. */
export function codexHome(home: string): string {
  const env = process.env.CODEX_HOME?.trim();
  if (!env) return path.join(home, ".codex");
  try {
    return realpathSync(env);
  } catch {
    return path.resolve(env);
  }
}

/**
 * The hash Codex trusts a command hook by (`trusted_hash` in `[hooks.state."<file>:<event>:<group>:<index>"]`):
 * SHA-256 of the hook's normalized identity as JSON with sorted keys — event label, the group's
 * matcher, the one handler with its timeout filled in. Checked against `codex app-server`'s
 * `hooks/list` and a real session without --dangerously-bypass-hook-trust in the e2e test.
 */
export function codexHookHash(event: string, label: string, matcher: unknown, handler: Json): string {
  const normalized: Json = {
    type: "command",
    command: handler.command,
    timeout: Math.max(1, typeof handler.timeout === "number" ? handler.timeout : CODEX_DEFAULT_TIMEOUT),
    async: handler.async === true,
  };
  if (typeof handler.statusMessage === "string") normalized.statusMessage = handler.statusMessage;
  const identity: Json = { event_name: label, hooks: [normalized] };
  if (typeof matcher === "string" && !NO_MATCHER.has(event)) identity.matcher = matcher;
  const sorted = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sorted) : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Json)[k])])) : v;
  return `sha256:${createHash("sha256").update(JSON.stringify(sorted(identity))).digest("hex")}`;
}

function planHooks(file: string, command: string): { planned: PlannedFile; hooks: Json } {
  let hooks: Json = {};
  const planned = planJson(file, (json) => {
    const merged = mergeHooks(
      json,
      EVENTS.map((e) => ({ event: e.event, command: hookCommand(command, e.subcommand, "codex"), subcommand: e.subcommand, timeout: e.timeout })),
    );
    hooks = merged.settings;
    return { json: merged.settings, changes: merged.changes };
  });
  return { planned, hooks };
}

/** `[hooks.state."<hooks.json>:<event>:<group>:<index>"]` with the hash of each Baton hook where the merged hooks.json puts it. */
function trustEntries(hooksFile: string, hooks: Json, command: string): { key: string; hash: string; event: string }[] {
  const entries: { key: string; hash: string; event: string }[] = [];
  const byEvent = (hooks.hooks ?? {}) as Json;
  for (const e of EVENTS) {
    const groups = Array.isArray(byEvent[e.event]) ? (byEvent[e.event] as Json[]) : [];
    groups.forEach((group, g) => {
      const handlers = group && Array.isArray(group.hooks) ? (group.hooks as Json[]) : [];
      handlers.forEach((handler, h) => {
        // Merged, Baton's hook runs exactly what was written (mergeHooks updates an earlier install's).
        if (!handler || handler.command !== hookCommand(command, e.subcommand, "codex")) return;
        entries.push({ key: `${hooksFile}:${e.label}:${g}:${h}`, hash: codexHookHash(e.event, e.label, group.matcher, handler), event: e.event });
      });
    });
  }
  return entries;
}

/** An MCP server entry's keys for the streamable HTTP transport (Codex's config), which a stdio entry must not have. */
const HTTP_KEYS = ["url", "bearer_token", "bearer_token_env_var", "http_headers", "env_http_headers"] as const;

function planConfig(file: string, command: string, trust: { key: string; hash: string; event: string }[]): PlannedFile {
  const before = readConfigText(file);
  let text = before ?? "";
  const changes: string[] = [];
  const [program, ...args] = commandWords(command);
  try {
    // An HTTP entry's keys go: Codex refuses a server with both a command and a url (and the whole file with it).
    const mcp = setTable(
      text,
      ["mcp_servers", "baton"],
      [
        ["command", tomlString(program ?? "baton")],
        ["args", tomlStrings([...args, "mcp"])],
        ["env_vars", tomlStrings(MCP_ENV_VARS)],
      ],
      HTTP_KEYS,
    );
    if (mcp.changed) changes.push(/^\s*\[mcp_servers\.baton\]/m.test(text) ? `updated the "baton" MCP server` : `added the "baton" MCP server`);
    text = mcp.text;
    for (const t of trust) {
      const state = setTable(text, ["hooks", "state", t.key], [["trusted_hash", tomlString(t.hash)]]);
      if (state.changed) changes.push(`trusted the ${t.event} hook`);
      text = state.text;
    }
  } catch (error) {
    if (error instanceof TomlError) throw new MergeError(`${file} is not TOML Baton can edit (${error.message})`);
    throw error;
  }
  return { file, before, after: changes.length ? text : (before ?? ""), changes };
}

function plan(context: InstallContext): InstallPlan {
  const dir = codexHome(context.home);
  const hooksFile = path.join(dir, "hooks.json");
  const { planned: hooks, hooks: merged } = planHooks(hooksFile, context.command);
  const config = planConfig(path.join(dir, "config.toml"), context.command, trustEntries(hooksFile, merged, context.command));
  return {
    files: [hooks, config],
    notes: [
      "Codex runs a hook only once it is trusted, and skips an untrusted one silently: the trust of Baton's four hooks is recorded in config.toml as Codex 0.169 records it. " +
        "Should Codex still say at start that hooks need review (a Codex version that hashes hooks differently), type /hooks in an interactive `codex` session and trust the four `hook … --agent codex` entries; nothing else needs confirming.",
      "The MCP server runs `baton mcp`, which reads the server and token from Baton's own config (or BATON_URL and BATON_TOKEN): none is written into Codex's config.",
    ],
  };
}

export const codexInstaller: Installer = {
  scopes: ["user"],
  plan,
  found: ({ home }) => onPath("codex") ?? folderIfAny(codexHome(home)),
};
