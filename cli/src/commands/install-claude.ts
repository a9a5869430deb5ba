import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "../config/load-config";
import { CliError, EXIT } from "../exit-codes";
import { parseOptions } from "../output/parse-options";
import { note, printResult } from "../output/print";
import { batonMcpServer, mergeHooks, mergeMcp, MergeError, type Json } from "./merge-settings";
import { unifiedDiff } from "./unified-diff";

type Planned = { file: string; rel: string; before: string | null; after: string; changes: string[] };

function readJsonFile(file: string, rel: string): { text: string | null; json: Json } {
  if (!existsSync(file)) return { text: null, json: {} };
  const text = readFileSync(file, "utf8");
  if (!text.trim()) return { text, json: {} };
  try {
    const json: unknown = JSON.parse(text);
    if (json && typeof json === "object" && !Array.isArray(json)) return { text, json: json as Json };
  } catch (error) {
    throw new CliError(`${rel} is not valid JSON (${(error as Error).message}); fix it first. Nothing was written.`, EXIT.failure);
  }
  throw new CliError(`${rel} is not a JSON object; fix it first. Nothing was written.`, EXIT.failure);
}

/**
 * The `baton` the shell would run, resolved through symlinks, or null when none is on PATH. Not the
 * node_modules/.bin folders npx and npm scripts add: they are gone when Claude Code runs the hook.
 */
function batonOnPath(): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir || path.basename(dir) === ".bin") continue;
    try {
      return realpathSync(path.join(dir, "baton"));
    } catch {
      // not in this folder
    }
  }
  return null;
}

/**
 * What the hooks run: `baton` when the baton on PATH is this very CLI (installed by install.sh, so
 * the same line works for everyone on the team who installed it), else this file by its absolute
 * path (a checkout, or a copy not on PATH), so the hooks work without any install. Never an npm
 * package name: the npm package called baton belongs to somebody else.
 */
function defaultCommand(): string {
  // Through node_modules/.bin the script is a symlink: name the file itself.
  const bin = realpathSync(path.resolve(process.argv[1]!));
  if (batonOnPath() === bin) return "baton";
  return `node ${/^[\w@%+=:,./-]+$/.test(bin) ? bin : JSON.stringify(bin)}`;
}

function plan(root: string, rel: string, merge: (json: Json) => { json: Json; changes: string[] }): Planned {
  const file = path.join(root, rel);
  const { text, json } = readJsonFile(file, rel);
  let merged;
  try {
    merged = merge(json);
  } catch (error) {
    if (error instanceof MergeError) throw new CliError(`${rel}: ${error.message}; fix it first. Nothing was written.`, EXIT.failure);
    throw error;
  }
  const after = merged.changes.length ? JSON.stringify(merged.json, null, 2) + "\n" : (text ?? "");
  return { file, rel, before: text, after, changes: merged.changes };
}

/**
 * Claude Code's own time limit for each hook, in seconds, as the plugin's hooks/hooks.json sets them: a
 * backstop far above the CLI's own limits (timeoutMs, promptTimeoutMs), which a repository's
 * .baton.json may raise to 120 s. SessionEnd has none: it hands its work to a detached process.
 */
export const HOOK_TIMEOUT_SECONDS = { sessionStart: 30, prompt: 10, preCompact: 30 } as const;

/**
 * `baton install claude [--dry-run] [--command PREFIX] [--url URL]`: Baton's hooks (SessionStart,
 * UserPromptSubmit, PreCompact, SessionEnd) into `.claude/settings.json` and its MCP server into `.mcp.json`, at the
 * repository root. Everything already there stays; running it again changes nothing.
 */
export async function runInstall(args: string[]): Promise<number> {
  const [target, ...rest] = args;
  if (target !== "claude") throw new CliError(`unknown install target "${target ?? ""}": use baton install claude.`, EXIT.usage);
  const { values } = parseOptions(rest, { "dry-run": { type: "boolean" }, command: { type: "string" }, url: { type: "string" } });
  const config = loadConfig();
  for (const warning of config.warnings) note(warning);
  const url = (values.url ?? config.url)?.replace(/\/+$/, "");
  if (!url || !/^https?:\/\//.test(url)) {
    throw new CliError("the MCP entry needs the server's URL: set BATON_URL (or url in ~/.config/baton/config.json), or pass --url.", EXIT.usage);
  }
  const prefix = values.command?.trim() || defaultCommand();
  const root = config.repoRoot ?? config.cwd;

  const planned = [
    plan(root, path.join(".claude", "settings.json"), (json) => {
      const { settings, changes } = mergeHooks(json, [
        { event: "SessionStart", command: `${prefix} hook session-start`, subcommand: "session-start", timeout: HOOK_TIMEOUT_SECONDS.sessionStart },
        { event: "UserPromptSubmit", command: `${prefix} hook prompt`, subcommand: "prompt", timeout: HOOK_TIMEOUT_SECONDS.prompt },
        { event: "PreCompact", command: `${prefix} hook pre-compact`, subcommand: "pre-compact", timeout: HOOK_TIMEOUT_SECONDS.preCompact },
        { event: "SessionEnd", command: `${prefix} hook session-end`, subcommand: "session-end" },
      ]);
      return { json: settings, changes };
    }),
    plan(root, ".mcp.json", (json) => {
      const { mcp, changes } = mergeMcp(json, batonMcpServer(url));
      return { json: mcp, changes };
    }),
  ];

  if (values["dry-run"]) {
    const diffs = planned
      .filter((p) => p.changes.length)
      .map((p) => unifiedDiff(p.before ?? "", p.after, p.before === null ? "/dev/null" : `a/${p.rel}`, `b/${p.rel}`));
    process.stdout.write(diffs.length ? diffs.join("") : "No changes: Baton is already installed here.\n");
    return EXIT.ok;
  }

  for (const p of planned) {
    if (!p.changes.length) continue;
    mkdirSync(path.dirname(p.file), { recursive: true });
    writeFileSync(p.file, p.after);
  }
  printResult({ root, files: planned.map((p) => ({ path: p.file, changed: p.changes.length > 0, changes: p.changes })) }, () =>
    [
      ...planned.map((p) => (p.changes.length ? `${p.rel}: ${p.changes.join(", ")}.` : `${p.rel}: already set up, unchanged.`)),
      "The MCP entry reads the token from BATON_TOKEN in Claude Code's environment.",
    ].join("\n"),
  );
  return EXIT.ok;
}
