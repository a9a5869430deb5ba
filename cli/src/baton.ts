import { CliError, EXIT } from "./exit-codes";
import { hooksAreOff } from "./hooks/hooks-off";
import { AGENTS } from "./agents/agents";
import { unavailableText } from "./hooks/session-start-output";
import { isAgentName, type AgentName } from "../../lib/rules";
import { reportVersionMismatchTo } from "./http/version-check";
import { asksForHelp, commandHelp, helpProblem, overallHelp, type CommandName } from "./usage";
import { CLI_VERSION } from "./version";

// The dispatcher: every command is a dynamic import, so `baton hook session-start` (run before
// every agent session) loads only its own small chunk, and `baton admin` alone loads the database.

type Runner = (args: string[]) => Promise<number>;

/**
 * Each command, loaded when named. The import paths are written out (not computed) so that esbuild
 * gives every command its own chunk. Exactly the commands of USAGE: none without its `--help`.
 */
const COMMANDS = {
  login: async () => (await import("./commands/login")).runLogin,
  whoami: async () => (await import("./commands/whoami")).runWhoami,
  logout: async () => (await import("./commands/logout")).runLogout,
  hook: async () => runHook,
  pickup: async () => (await import("./commands/pickup")).runPickup,
  session: async () => (await import("./commands/session")).runSession,
  handoff: async () => (await import("./commands/handoff")).runHandoff,
  task: async () => (await import("./commands/task")).runTask,
  learnings: async () => (await import("./commands/learnings")).runLearnings,
  remember: async () => (await import("./commands/remember")).runRemember,
  invites: async () => (await import("./commands/invites")).runInvites,
  install: async () => (await import("./commands/install")).runInstall,
  doctor: async () => (await import("./commands/doctor")).runDoctor,
  import: async () => (await import("./import/run-import")).runImport,
  // `baton mcp`, the stdio bridge to /api/mcp: cli/src/mcp/ belongs to the MCP work.
  mcp: async () => (await import("./mcp/run-mcp")).runMcp,
  // Loaded only here: the database layer must never slow the hooks down.
  admin: async () => (await import("./admin/run-admin")).runAdmin,
} satisfies Record<CommandName, () => Promise<Runner>>;

const isCommand = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name);

type Hook = (agent: AgentName, args: string[]) => Promise<void>;

async function sessionEnd(event: "SessionEnd" | "Stop"): Promise<Hook> {
  const { runSessionEnd } = await import("./hooks/session-end");
  return (agent) => runSessionEnd(event, agent);
}

const HOOKS = new Map<string, () => Promise<Hook>>([
  ["session-start", async () => (await import("./hooks/session-start")).runSessionStart],
  ["session-end", async () => sessionEnd("SessionEnd")],
  ["stop", async () => sessionEnd("Stop")],
  ["prompt", async () => (await import("./hooks/prompt")).runPrompt],
  ["pre-compact", async () => (await import("./hooks/pre-compact")).runPreCompact],
  ["session-end-worker", async () => {
    const { runSessionEndWorker } = await import("./hooks/session-end-worker");
    return (_agent, args) => runSessionEndWorker(args[0] ?? "");
  }],
]);

/** `--agent <name>` among a hook's arguments (Claude Code when absent), and the rest. */
function hookAgent(args: string[]): { agent: AgentName; rest: string[]; unknown: string | null } {
  const at = args.indexOf("--agent");
  if (at < 0) return { agent: "claude", rest: args, unknown: null };
  const name = args[at + 1] ?? "";
  const rest = [...args.slice(0, at), ...args.slice(at + 2)];
  return isAgentName(name) ? { agent: name, rest, unknown: null } : { agent: "claude", rest, unknown: name };
}

/** Hooks never fail the agent: whatever happens, exit 0 (and session-start still answers). */
async function runHook(args: string[]): Promise<number> {
  // Hook output belongs to the agent: a version notice goes to hook.log instead.
  reportVersionMismatchTo("hook-log");
  const [event, ...given] = args;
  const load = event === undefined ? undefined : HOOKS.get(event);
  if (!load) {
    const problem = `unknown hook "${event ?? ""}": use session-start, prompt, pre-compact, session-end or stop.`;
    // A person at a terminal is told. An agent is not failed: Claude Code reads exit 2 as "block this
    // prompt", and an event the CLI does not know comes from a plugin or settings newer than the CLI.
    if (process.stdin.isTTY) throw new CliError(problem, EXIT.usage);
    await logHookProblem(problem);
    return EXIT.ok;
  }
  const { agent, rest, unknown } = hookAgent(given);
  if (hooksAreOff(process.env)) return EXIT.ok;
  try {
    // An agent this CLI does not know (a newer install than the CLI): its shape cannot be guessed, so nothing is said.
    if (unknown !== null) throw new Error(`unknown agent "${unknown}": update the CLI (curl -fsSL <server>/install.sh | sh)`);
    await (await load())(agent, rest);
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    if (event === "session-start" && unknown === null) process.stdout.write((await AGENTS[agent].hook()).output("session-start", unavailableText(`error: ${message}`.slice(0, 200))));
    await logHookProblem(`${event}: ${(error as Error)?.stack ?? String(error)}`);
  }
  return EXIT.ok;
}

/** A hook's problem, in hook.log: hooks have nobody to tell. */
async function logHookProblem(line: string): Promise<void> {
  try {
    const { hookLog } = await import("./hooks/hook-log");
    hookLog(line);
  } catch {
    // nothing more to do
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(overallHelp(CLI_VERSION));
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  if (command === "--version" || command === "-v") {
    process.stdout.write(`${CLI_VERSION}\n`);
    return EXIT.ok;
  }
  if (!isCommand(command)) throw new CliError(`unknown command "${command}". Run \`baton --help\`.`, EXIT.usage);
  if (asksForHelp(rest)) {
    const problem = helpProblem(command, rest);
    if (problem) throw new CliError(`${problem} Run \`baton ${command} --help\`.`, EXIT.usage);
    process.stdout.write(commandHelp(command));
    return EXIT.ok;
  }
  return (await COMMANDS[command]())(rest);
}

// A reader that stops early (`baton session list | head -1`) closes the pipe: the rest of the output is
// dropped without a word and the command's own exit code stands. Another write error is said.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") return;
  process.stderr.write(`baton: cannot write the output (${error.message})\n`);
  process.exitCode = EXIT.failure;
});

/** An error is one line, `baton: …` (README): a message quoting a file's JSON or parseArgs' advice has line breaks. */
const oneLine = (message: string) => message.trim().replace(/\s*\n\s*/g, " ");

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  // Loaded only when there is an error to say: the hooks' own path stays small.
  async (error: unknown) => {
    const { writeText } = await import("./output/terminal-safe");
    const message = error instanceof Error ? error.message : String(error);
    writeText(process.stderr, `baton: ${oneLine(message)}\n`);
    process.exitCode = error instanceof CliError ? error.exitCode : EXIT.failure;
  },
);
