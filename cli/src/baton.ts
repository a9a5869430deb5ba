import { CliError, EXIT } from "./exit-codes";

// The dispatcher: every command is a dynamic import, so `baton hook session-start` (run before
// every agent session) loads only its own small chunk, and `baton admin` alone loads the database.

const HELP = `baton — the command line of Baton, the context hub for coding agents

Usage:
  baton hook session-start              Claude Code SessionStart hook: prints the context (never fails)
  baton hook session-end | stop         SessionEnd / Stop hook: leaves a handoff and learning candidates
  baton pickup [id] [--no-inject] [--max-chars N] [--project SLUG]
  baton handoff new [--spec P]... [--file P]... [--priority P] [--title T] [--tag T]... [-m TEXT]
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

/** The session-start answer when something broke before the hook could give its own. */
const fallbackContext = (why: string) =>
  JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: `Baton: context unavailable (${why}).` } }) + "\n";

/** Hooks never fail the agent: whatever happens, exit 0 (and session-start still answers). */
async function runHook(args: string[]): Promise<number> {
  const [event, ...rest] = args;
  try {
    switch (event) {
      case "session-start": {
        const { runSessionStart } = await import("./hooks/session-start");
        await runSessionStart();
        return EXIT.ok;
      }
      case "session-end":
      case "stop": {
        const { runSessionEnd } = await import("./hooks/session-end");
        await runSessionEnd(event === "stop" ? "Stop" : "SessionEnd");
        return EXIT.ok;
      }
      case "session-end-worker": {
        const { runSessionEndWorker } = await import("./hooks/session-end-worker");
        await runSessionEndWorker(rest[0] ?? "");
        return EXIT.ok;
      }
      default:
        throw new CliError(`unknown hook "${event ?? ""}": use session-start, session-end or stop.`, EXIT.usage);
    }
  } catch (error) {
    if (error instanceof CliError && error.exitCode === EXIT.usage) throw error;
    if (event === "session-start") process.stdout.write(fallbackContext(`error: ${(error as Error)?.message ?? String(error)}`.slice(0, 200)));
    try {
      const { hookLog } = await import("./hooks/hook-log");
      hookLog(`${event}: ${(error as Error)?.stack ?? String(error)}`);
    } catch {
      // nothing more to do
    }
    return EXIT.ok;
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "hook":
      return runHook(rest);
    case "pickup":
      return (await import("./commands/pickup")).runPickup(rest);
    case "handoff":
      return (await import("./commands/handoff")).runHandoff(rest);
    case "task":
      return (await import("./commands/task")).runTask(rest);
    case "learnings":
      return (await import("./commands/learnings")).runLearnings(rest);
    case "install":
      return (await import("./commands/install-claude")).runInstall(rest);
    case "import":
      return (await import("./import/run-import")).runImport(rest);
    case "mcp":
      // `baton mcp`, the stdio bridge to /api/mcp: cli/src/mcp/ belongs to the MCP work.
      return (await import("./mcp/run-mcp")).runMcp(rest);
    case "admin": {
      // Loaded only here: the database layer must never slow the hooks down.
      const { runAdmin } = await import("./admin/run-admin");
      return runAdmin(rest);
    }
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(HELP);
      return command === undefined ? EXIT.usage : EXIT.ok;
    default:
      throw new CliError(`unknown command "${command}". Run \`baton --help\`.`, EXIT.usage);
  }
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
