import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI_VERSION } from "../version";
import { cacheDir, hookLog } from "../hooks/hook-log";
import type { Trust } from "./server-fetch";
import { shellWord } from "../text/shell-word";

// Runs inside every request the CLI makes, the hooks' included: it costs nothing while the versions
// agree, and one small file read when they differ. No request of its own: the server names its
// version in the Baton-Version header of every API answer.

/** The response header every API answer carries (next.config.ts). */
export const VERSION_HEADER = "baton-version";
/** A mismatch is worth one notice a day, not one per command. */
const NOTICE_EVERY_MS = 24 * 60 * 60 * 1000;
/** Set by the Claude Code plugin's launcher: the cached copy of this CLI, fetched from the server. */
const PLUGIN_CACHE_ENV = "BATON_CLI_CACHE";

let sink: "stderr" | "hook-log" = "stderr";
let checked = false;

/** Hooks must not write to stderr or stdout (their output is Claude Code's): notices go to hook.log. */
export function reportVersionMismatchTo(where: "stderr" | "hook-log"): void {
  sink = where;
}

const stateFile = () => path.join(cacheDir(), "version-notice.json");

/**
 * What was done about a server's version, each with when: a person told (`told`: on stderr), the notice
 * written to hook.log (`logged`), the plugin's cached CLI dropped (`dropped`: which CLI, `droppedAt`).
 * Told and logged are apart: a notice only hook.log holds was told to nobody, so it does not keep a
 * person's next command from saying it. (`at`: what a version before kept, when a person was told.)
 */
type Noticed = { server?: unknown; told?: unknown; logged?: unknown; dropped?: unknown; droppedAt?: unknown; at?: unknown };
type Done = "told" | "logged" | "dropped";

function noticeState(serverVersion: string): Noticed {
  try {
    const last = JSON.parse(readFileSync(stateFile(), "utf8")) as Noticed;
    return last && typeof last === "object" && last.server === serverVersion ? last : {};
  } catch {
    return {};
  }
}

/** Whether `what` was done for this server's version within the day. */
function doneRecently(state: Noticed, what: Done, now: number): boolean {
  const at = what === "told" ? (state.told ?? state.at) : what === "logged" ? state.logged : state.droppedAt;
  return typeof at === "number" && now - at < NOTICE_EVERY_MS && (what !== "dropped" || state.dropped === CLI_VERSION);
}

function remember(serverVersion: string, state: Noticed, what: Done, now: number): void {
  try {
    mkdirSync(cacheDir(), { recursive: true, mode: 0o700 });
    const file = stateFile();
    const done = what === "dropped" ? { dropped: CLI_VERSION, droppedAt: now } : { [what]: now };
    writeFileSync(`${file}.${process.pid}`, JSON.stringify({ ...state, at: undefined, server: serverVersion, cli: CLI_VERSION, ...done }), { mode: 0o600 });
    renameSync(`${file}.${process.pid}`, file);
  } catch {
    // a read-only home: the notice comes again, no harm
  }
}

/**
 * The update command, each path a shell word; a team's own CA goes to curl and to install.sh, which keeps
 * it as caFile (a CA path no shell word can hold is named for the user to give).
 */
export function installCommand(serverUrl: string, trust: Trust): string {
  const script = shellWord(`${serverUrl}/install.sh`) ?? "<server>/install.sh";
  if (!trust.caFile || !serverUrl.startsWith("https:")) return `curl -fsSL ${script} | sh`;
  const ca = shellWord(trust.caFile) ?? "<your CA file>";
  return `curl --cacert ${ca} -fsSL ${script} | BATON_CA_FILE=${ca} sh`;
}

/**
 * Compares the server's version (from an answer's Baton-Version header) with this CLI's, once per
 * process. On a mismatch: a copy cached by the plugin's launcher is dropped, so the next run fetches
 * the server's own; anything else gets a notice (stderr, or hook.log in hooks) at most once a day,
 * saying how to update.
 */
export function checkServerVersion(serverVersion: string | null, serverUrl: string, trust: Trust = {}): void {
  if (checked || !serverVersion || serverVersion === CLI_VERSION) return;
  checked = true;
  const cached = process.env[PLUGIN_CACHE_ENV];
  const now = Date.now();
  const state = noticeState(serverVersion);
  // A copy fetched again that is still not the server's version (a proxy's old copy, a server handing
  // out another CLI than it names) is kept, said once a day: dropping it again would fetch it at every run.
  if (cached && !doneRecently(state, "dropped", now)) {
    try {
      unlinkSync(cached);
      remember(serverVersion, state, "dropped", now);
      hookLog(`the server at ${serverUrl} runs Baton ${serverVersion}, the cached CLI was ${CLI_VERSION}: fetching the server's next time`);
    } catch {
      // already dropped by another process
    }
    return;
  }
  const what = sink === "hook-log" ? "logged" : "told";
  if (doneRecently(state, what, now)) return;
  const message = `this CLI is Baton ${CLI_VERSION}, the server at ${serverUrl} runs ${serverVersion}; update: ${installCommand(serverUrl, trust)}`;
  if (sink === "hook-log") hookLog(message);
  else process.stderr.write(`baton: ${message}\n`);
  remember(serverVersion, state, what, now);
}
