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
import { spawn } from "node:child_process";
import { appendFileSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { rootCertificates } from "node:tls";
import { pathToFileURL } from "node:url";

/** The first fetch of the CLI happens during a session start: a few seconds at most, then give up. */
const DOWNLOAD_MS = 5000;
/** The first line cli/build.mjs writes: what came back is Baton's CLI, not an error page. */
const BUNDLE_START = "#!/usr/bin/env node\n// Baton CLI ";
const args = process.argv.slice(2);
const isHook = args[0] === "hook";
// Baton's own nested sessions (the summariser's `claude -p`) run with the hooks off: nothing to fetch,
// nothing to say (as the CLI rules, cli/src/hooks/hooks-off.ts).
if (isHook && process.env.BATON_HOOKS === "off") process.exit(0);

/**
 * The home folder only when it is an absolute path, and an XDG variable only when it is one (as
 * cli/src/config/home.ts rules for the CLI): an empty or relative HOME would otherwise read and write
 * folders relative to where the hook runs, inside a repository. Null: none.
 */
function home() {
  try {
    const folder = homedir();
    return folder && path.isAbsolute(folder) ? folder : null;
  } catch {
    return null;
  }
}
/** An XDG folder, else `<home>/<fallback>`; null with neither. */
const xdgOrNull = (variable, fallback) => {
  const set = process.env[variable]?.trim();
  if (set && path.isAbsolute(set)) return set;
  const folder = home();
  return folder ? path.join(folder, fallback) : null;
};
const xdg = (variable, fallback) => xdgOrNull(variable, fallback) ?? giveUp("no home folder: set HOME to an absolute path");
const cacheDir = () => path.join(xdg("XDG_CACHE_HOME", ".cache"), "baton");

function log(message) {
  if (!xdgOrNull("XDG_CACHE_HOME", ".cache")) return; // no home folder: nowhere to log
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
  return /^https?:\/\//i.test(value?.trim() ?? "") ? normalised(value.trim()) : null;
}

/**
 * An address as the CLI writes it (normaliseUrl in cli/src/config/load-config.ts): the WHATWG parser's
 * form (scheme and host in lower case) without a trailing slash, so `https:` is found whatever the case.
 */
function normalised(value) {
  try {
    return new URL(value).href.replace(/\/+$/, "");
  } catch {
    return value.replace(/\/+$/, "");
  }
}

let config;
function userConfig() {
  try {
    // No home folder: no config file; BATON_URL and BATON_TOKEN from the environment still work.
    const folder = xdgOrNull("XDG_CONFIG_HOME", ".config");
    // A byte order mark (Notepad's) is read past, as the CLI reads it (parseConfigText in cli/src/config/load-config.ts).
    config ??= folder ? JSON.parse(readFileSync(path.join(folder, "baton", "config.json"), "utf8").replace(/^\uFEFF/, "")) : {};
  } catch {
    config = {}; // no config file: said below
  }
  return config && typeof config === "object" ? config : {};
}
const setting = (variable, key) => {
  const value = process.env[variable]?.trim() || userConfig()[key];
  return typeof value === "string" && value.trim() ? value.trim() : null;
};

function serverUrl() {
  const configured = setting("BATON_URL", "url");
  return urlArgument() ?? (configured ? normalised(configured) : null);
}

/**
 * The CAs to trust for an https server when the user has one of their own (BATON_CA_FILE, else caFile
 * in the config file, as the CLI reads them): Node's roots, NODE_EXTRA_CA_CERTS (an explicit list
 * replaces both) and that file. Null: fetch trusts what Node trusts.
 */
function trustedCas(url) {
  const given = url.startsWith("https:") ? setting("BATON_CA_FILE", "caFile") : null;
  // `~/…` is the home folder's; with none it names no file.
  const caFile = given && /^~(?=\/|$)/.test(given) ? (home() ? given.replace(/^~/, home()) : null) : given;
  if (!caFile) return null;
  const read = (file) => {
    try {
      return [readFileSync(file, "utf8")];
    } catch {
      return [];
    }
  };
  const own = read(caFile);
  if (!own.length) giveUp(`caFile ${caFile} cannot be read`);
  return [...rootCertificates, ...(process.env.NODE_EXTRA_CA_CERTS ? read(process.env.NODE_EXTRA_CA_CERTS) : []), ...own];
}

/** GET over node:https with the user's CAs: Node 20's fetch takes no CA. */
function getTrusting(address, ca) {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(address, { ca, signal: AbortSignal.timeout(DOWNLOAD_MS) }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ ok: res.statusCode === 200, status: res.statusCode, text: () => text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** Set in the copy `later` starts: it may take the whole DOWNLOAD_MS. */
const LATER = "BATON_PLUGIN_LATER";
/** The hooks that end a session or a turn: what they post can be posted a little later. */
const ENDS = new Set(["session-end", "stop"]);

/**
 * Starts this launcher again, detached, with the hook's input from a file: it downloads the CLI and
 * runs the hook, so the session's handoff is not lost. Then exits 0.
 */
async function later() {
  const chunks = [];
  // Claude Code closes the hook's stdin once written; a pipe never closed is cut short.
  const done = new Promise((resolve) => process.stdin.on("end", resolve).on("error", resolve));
  process.stdin.on("data", (chunk) => chunks.push(chunk));
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 500))]);
  try {
    // The input waits in a private folder of its own (the cache's, or the system's temp without a home).
    const base = xdgOrNull("XDG_CACHE_HOME", ".cache");
    const folder = base ? path.join(base, "baton") : mkdtempSync(path.join(tmpdir(), "baton-plugin-"));
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const input = path.join(folder, `plugin-hook-${process.pid}.json`);
    writeFileSync(input, Buffer.concat(chunks), { mode: 0o600 });
    const stdin = openSync(input, "r");
    const child = spawn(process.execPath, [process.argv[1], ...args], { detached: true, stdio: [stdin, "ignore", "ignore"], env: { ...process.env, [LATER]: "1" } });
    child.on("error", () => {});
    child.unref();
    closeSync(stdin);
    try {
      unlinkSync(input); // the child holds it open
    } catch {
      // a system that cannot delete an open file: the next run's cache holds one small file
    }
    log(`the CLI is not fetched yet: fetching it in the background for ${args[1]}`);
  } catch (error) {
    log(`could not start the background fetch: ${error?.message ?? error}`);
  }
  process.exit(0);
}

async function download(url, file) {
  let text;
  try {
    const ca = trustedCas(url);
    const address = `${url}/cli/baton.mjs`;
    const res = ca ? await getTrusting(address, ca) : await fetch(address, { signal: AbortSignal.timeout(DOWNLOAD_MS) });
    text = res.ok ? await res.text() : null;
    if (!res.ok) giveUp(`could not fetch the CLI: ${url}/cli/baton.mjs answered ${res.status}`);
  } catch (error) {
    const code = error?.cause?.code ?? error?.code;
    const untrusted = /CERT|SELF_SIGNED|UNABLE_TO_(VERIFY|GET_ISSUER)/.test(code ?? "");
    const hint = untrusted ? `: a CA this machine does not trust; set "caFile" in ~/.config/baton/config.json (or BATON_CA_FILE) to your team's CA certificate` : "";
    giveUp(`could not fetch the CLI from ${url} (${code ?? error?.name ?? error}${hint})`);
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
if (!existsSync(cli)) {
  // A session's end (1.5 s for all SessionEnd hooks) does not wait for the first download: it hands it to
  // a copy of this launcher that outlives it. The other hooks have time for it (hooks/hooks.json: a
  // prompt 10 s, a start or a checkpoint 30 s), and their answers are due now.
  if (isHook && ENDS.has(args[1]) && !process.env[LATER]) await later();
  await download(url, cli);
}
process.env.BATON_CLI_CACHE = cli;
try {
  await import(pathToFileURL(cli).href);
} catch (error) {
  rmSync(cli, { force: true });
  giveUp(`the cached CLI did not load and was removed (${error?.message ?? error})`);
}
