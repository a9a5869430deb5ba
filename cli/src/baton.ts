import { CliError, EXIT } from "./exit-codes";
import { unavailableOutput } from "./hooks/session-start-output";

// The dispatcher: every command is a dynamic import, so `baton hook session-start` (run before
// every agent session) loads only its own small chunk, and `baton admin` alone loads the database.

const HELP = `baton — the command line of Baton, the context hub for coding agents

Usage:
  baton hook session-start              Claude Code SessionStart hook: prints the context (never fails)
  baton hook session-end | stop         SessionEnd / Stop hook: leaves a handoff and learning candidates
  baton session new [--spec P]... [--file P]... [--priority P] [--title T] [--tag T]... [-m TEXT]
  baton session list [--status todo|doing|done] [--limit N]
  baton session pickup [id] [--no-inject] [--max-chars N]   (also: baton pickup)
  baton session complete|release <id>   a claimed session document done, or back in the queue
  baton handoff write [-m TEXT] [--branch B] [--session-id ID]   a handoff for the next session
  baton handoff show [--branch B]       the latest handoff of the project
  baton task start|stop|show [taskId]   the active task, its memory file and the CLAUDE.md import
  baton learnings [query] [--project SLUG] [--kind K] [--all]
  baton install claude [--dry-run] [--command PREFIX] [--url URL]
  baton import <path> [--project SLUG]  seed.json, Amplifier handoffs, backlog/memory, .spx/sessions
  baton mcp                             MCP over stdio, bridged to the server's /api/mcp
  baton admin create-user --email E --password P [--name N]
  baton admin create-token --email E --name N [--scope read|write] [--project SLUG]...

Configuration: BATON_URL and BATON_TOKEN (or url and token in ~/.config/baton/config.json), and
{"project": "slug"} in .baton.json at the repository root. Admin commands use DATABASE_URL instead.
Output is JSON when stdout is not a terminal.
Exit codes: 0 ok, 1 failure, 2 usage, 3 conflict, 4 not found, 5 server unreachable, 6 unauthorized.
`;

type Runner = (args: string[]) => Promise<number>;

/**
 * Each command, loaded when named. The import paths are written out (not computed) so that esbuild
 * gives every command its own chunk.
 */
const COMMANDS = new Map<string, () => Promise<Runner>>([
  ["pickup", async () => (await import("./commands/pickup")).runPickup],
  ["session", async () => (await import("./commands/session")).runSession],
  ["handoff", async () => (await import("./commands/handoff")).runHandoff],
  ["task", async () => (await import("./commands/task")).runTask],
  ["learnings", async () => (await import("./commands/learnings")).runLearnings],
  ["install", async () => (await import("./commands/install-claude")).runInstall],
  ["import", async () => (await import("./import/run-import")).runImport],
  // `baton mcp`, the stdio bridge to /api/mcp: cli/src/mcp/ belongs to the MCP work.
  ["mcp", async () => (await import("./mcp/run-mcp")).runMcp],
  // Loaded only here: the database layer must never slow the hooks down.
  ["admin", async () => (await import("./admin/run-admin")).runAdmin],
]);

type Hook = (args: string[]) => Promise<void>;

async function sessionEnd(event: "SessionEnd" | "Stop"): Promise<Hook> {
  const { runSessionEnd } = await import("./hooks/session-end");
  return () => runSessionEnd(event);
}

const HOOKS = new Map<string, () => Promise<Hook>>([
  ["session-start", async () => (await import("./hooks/session-start")).runSessionStart],
  ["session-end", async () => sessionEnd("SessionEnd")],
  ["stop", async () => sessionEnd("Stop")],
  ["session-end-worker", async () => {
    const { runSessionEndWorker } = await import("./hooks/session-end-worker");
    return (args) => runSessionEndWorker(args[0] ?? "");
  }],
]);

/** Hooks never fail the agent: whatever happens, exit 0 (and session-start still answers). */
async function runHook(args: string[]): Promise<number> {
  const [event, ...rest] = args;
  const load = event === undefined ? undefined : HOOKS.get(event);
  if (!load) throw new CliError(`unknown hook "${event ?? ""}": use session-start, session-end or stop.`, EXIT.usage);
  try {
    await (await load())(rest);
  } catch (error) {
    if (event === "session-start") process.stdout.write(unavailableOutput(`error: ${(error as Error)?.message ?? String(error)}`.slice(0, 200)));
    try {
      const { hookLog } = await import("./hooks/hook-log");
      hookLog(`${event}: ${(error as Error)?.stack ?? String(error)}`);
    } catch {
      // nothing more to do
    }
  }
  return EXIT.ok;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(HELP);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  if (command === "hook") return runHook(rest);
  const load = COMMANDS.get(command);
  if (!load) throw new CliError(`unknown command "${command}". Run \`baton --help\`.`, EXIT.usage);
  return (await load())(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof CliError) {
      process.stderr.write(`baton: ${error.message}\n`);
      process.exitCode = error.exitCode;
    } else {
      process.stderr.write(`baton: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = EXIT.failure;
    }
  },
);
