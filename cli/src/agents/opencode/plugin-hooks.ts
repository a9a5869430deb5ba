import { spawn } from "node:child_process";
import { closeSync, openSync, readdirSync, statSync, unlinkSync } from "node:fs";
import { cacheDir } from "../../hooks/hook-log";
import path from "node:path";
import { writeWhole } from "../../output/write-whole";
import { hookCommand } from "../hook-command";

// How Baton's opencode plugin (plugin.ts) runs the CLI's hooks: opencode has no command hooks, so the
// plugin, running inside opencode (Bun), starts `<command> hook <event> --agent opencode` itself with
// the JSON input it builds, and reads what the hook prints. Node built-ins only: the plugin file is
// one self-contained script, and nothing from npm may be needed to load it.

/** What `baton install opencode` bakes into the plugin file (plugin.ts, SETTINGS). */
export type PluginSettings = {
  /** The command line that runs Baton's CLI, e.g. `baton` or `node /abs/path/baton.mjs`. */
  command: string;
  /** How long each awaited hook may take, in milliseconds, before it is killed and the session goes on without it. */
  limitsMs: { sessionStart: number; prompt: number; preCompact: number };
};

/** The hook input the plugin sends, in the field names of cli/src/agents/opencode/hook.ts. */
export type PluginHookInput = {
  session_id: string;
  cwd: string;
  hook_event_name: string;
  transcript_path?: string;
  source?: string;
  prompt?: string;
  model?: string;
};

/** `$XDG_CACHE_HOME/baton/opencode`, else `~/.cache/baton/opencode`: the session files the plugin writes for the hooks. */
export function pluginDir(): string {
  return path.join(cacheDir(), "opencode");
}

/**
 * How long the plugin's session files are kept: long enough for every hook and worker they were written
 * for, which read them within minutes. A session resumed later is written again from its messages.
 */
export const PLUGIN_FILES_KEEP_MS = 24 * 3600 * 1000;
/** How often an opencode process looks for old files (an opencode kept open for days too). */
const PRUNE_EVERY_MS = 3600 * 1000;
let prunedAt = -Infinity;

/** Deletes the plugin's files older than PLUGIN_FILES_KEEP_MS, at most once an hour: a copy of every session's messages would otherwise stay on disk for good. */
function pruneOldFiles(dir: string): void {
  if (Date.now() - prunedAt < PRUNE_EVERY_MS) return;
  prunedAt = Date.now();
  try {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      try {
        if (Date.now() - statSync(file).mtimeMs > PLUGIN_FILES_KEEP_MS) unlinkSync(file);
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    // no folder yet
  }
}

/** Writes `text` to `file` whole or not at all: a detached worker may read it at any moment. */
export function writeAtomically(file: string, text: string): void {
  pruneOldFiles(path.dirname(file));
  writeWhole(file, text, { mode: 0o600, dirMode: 0o700 });
}

/** `exec` so that killing the shell at the time limit kills the hook itself. */
const shellLine = (settings: PluginSettings, event: string) => `exec ${hookCommand(settings.command, event, "opencode")}`;

/**
 * Runs one hook and gives back what it printed, or "" when it failed, printed nothing or ran past
 * `limitMs` (it is killed then). Never throws: a hook must not break the session.
 */
export function runHook(settings: PluginSettings, event: string, input: PluginHookInput, limitMs: number): Promise<string> {
  return new Promise((resolve) => {
    let out = "";
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(out);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn("/bin/sh", ["-c", shellLine(settings, event)], { cwd: input.cwd, env: process.env, stdio: ["pipe", "pipe", "ignore"] });
    } catch {
      return resolve("");
    }
    const timer = setTimeout(() => {
      out = "";
      child.kill("SIGKILL");
      done();
    }, limitMs);
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => (out += chunk));
    child.on("error", () => ((out = ""), done()));
    child.on("close", done);
    child.stdin?.on("error", () => {});
    child.stdin?.end(JSON.stringify(input));
  });
}

/**
 * Starts a hook that must outlive opencode (`opencode run` exits right after the turn's last event):
 * detached, its input read from a file rather than a pipe that dies with this process. Not awaited.
 */
export function startDetachedHook(settings: PluginSettings, event: string, input: PluginHookInput): void {
  const file = path.join(pluginDir(), `${input.session_id}.${event}.json`);
  writeAtomically(file, JSON.stringify(input));
  const stdin = openSync(file, "r");
  try {
    const child = spawn("/bin/sh", ["-c", shellLine(settings, event)], { cwd: input.cwd, env: process.env, stdio: [stdin, "ignore", "ignore"], detached: true });
    child.on("error", () => {});
    child.unref();
  } finally {
    closeSync(stdin);
  }
}

/** The context a session-start or prompt hook printed (`{"additionalContext": …}`, hook.ts), or "". */
export function contextOf(stdout: string): string {
  try {
    const context = (JSON.parse(stdout) as { additionalContext?: unknown } | null)?.additionalContext;
    return typeof context === "string" ? context : "";
  } catch {
    return "";
  }
}
