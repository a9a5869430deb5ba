#!/usr/bin/env node
// The Baton plugin's entry point: its hooks and its MCP server run `node <plugin>/bin/baton.mjs …`.
//
// The plugin does not carry the CLI. It runs the one its Baton server hands out (GET /cli/baton.mjs,
// the same file install.sh installs), fetched on first use into the plugin's data folder. So the
// hooks depend on no npm package name, a marketplace install from git needs no build step, and the
// CLI is always the server's own version: when a server answers with another version (its
// Baton-Version header), the CLI drops this cached copy and the next run fetches the new one.
//
// Plain JavaScript and node built-ins only: this file runs before every session, uncompiled.
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** The first fetch of the CLI happens during a session start: a few seconds at most, then give up. */
const DOWNLOAD_MS = 5000;
/** The first line cli/build.mjs writes: what came back is Baton's CLI, not an error page. */
const BUNDLE_START = "#!/usr/bin/env node\n// Baton CLI ";
const args = process.argv.slice(2);
const isHook = args[0] === "hook";

const xdg = (variable, fallback) => process.env[variable]?.trim() || path.join(homedir(), fallback);
const cacheDir = () => path.join(xdg("XDG_CACHE_HOME", ".cache"), "baton");

function log(message) {
  try {
    mkdirSync(cacheDir(), { recursive: true, mode: 0o700 });
    appendFileSync(path.join(cacheDir(), "hook.log"), `${new Date().toISOString()} [${process.pid}] plugin: ${message}\n`, { mode: 0o600 });
  } catch {
    // a read-only home must not break a hook
  }
}

/** Like the CLI (cli/src/hooks/session-start-output.ts): hooks never fail the session, they say why. */
function giveUp(why) {
  if (isHook) {
    log(why);
    if (args[1] === "session-start") {
      const additionalContext = `Baton: context unavailable (${why}).`;
      process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext } }) + "\n");
    }
    process.exit(0);
  }
  process.stderr.write(`baton: ${why}\n`);
  process.exit(5);
}

// The plugin's options (set with `claude plugin install … --config url=…` or in /plugin) reach hooks
// as CLAUDE_PLUGIN_OPTION_*. BATON_URL and BATON_TOKEN in the environment win; without either, the
// CLI reads ~/.config/baton/config.json as it always does.
for (const [option, variable] of [
  ["URL", "BATON_URL"],
  ["TOKEN", "BATON_TOKEN"],
]) {
  const value = process.env[`CLAUDE_PLUGIN_OPTION_${option}`]?.trim();
  if (value && !process.env[variable]?.trim()) process.env[variable] = value;
}

/** `login --url <server>` (or `--url=<server>`) names the server before any configuration holds it. */
function urlArgument() {
  if (args[0] !== "login") return null;
  const at = args.indexOf("--url");
  const value = at >= 0 ? args[at + 1] : args.find((a) => a.startsWith("--url="))?.slice("--url=".length);
  return /^https?:\/\//i.test(value?.trim() ?? "") ? value.trim().replace(/\/+$/, "") : null;
}

function serverUrl() {
  const named = urlArgument();
  if (named) return named;
  if (process.env.BATON_URL?.trim()) return process.env.BATON_URL.trim().replace(/\/+$/, "");
  try {
    const config = JSON.parse(readFileSync(path.join(xdg("XDG_CONFIG_HOME", ".config"), "baton", "config.json"), "utf8"));
    if (typeof config.url === "string" && config.url.trim()) return config.url.trim().replace(/\/+$/, "");
  } catch {
    // no config file: said below
  }
  return null;
}

async function download(url, file) {
  let text;
  try {
    const res = await fetch(`${url}/cli/baton.mjs`, { signal: AbortSignal.timeout(DOWNLOAD_MS) });
    text = res.ok ? await res.text() : null;
    if (!res.ok) giveUp(`could not fetch the CLI: ${url}/cli/baton.mjs answered ${res.status}`);
  } catch (error) {
    giveUp(`could not fetch the CLI from ${url} (${error?.cause?.code ?? error?.name ?? error})`);
  }
  if (!text.startsWith(BUNDLE_START)) giveUp(`${url}/cli/baton.mjs is not Baton's CLI (is ${url} a Baton server?)`);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
}

const url = serverUrl();
if (!url) giveUp("no server configured: run `baton login --url <server>` (through this file: node <plugin>/bin/baton.mjs login --url <server>), or set BATON_URL and BATON_TOKEN, or the plugin's url and token options");
// CLAUDE_PLUGIN_DATA is the plugin's own folder, kept across plugin updates; outside Claude Code the cache.
const cli = path.join(process.env.CLAUDE_PLUGIN_DATA?.trim() || path.join(cacheDir(), "plugin"), "baton.mjs");
if (!existsSync(cli)) await download(url, cli);
process.env.BATON_CLI_CACHE = cli;
try {
  await import(pathToFileURL(cli).href);
} catch (error) {
  rmSync(cli, { force: true });
  giveUp(`the cached CLI did not load and was removed (${error?.message ?? error})`);
}
