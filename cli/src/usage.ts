import { LEARNING_KINDS, PROMPT_HINT_CHARS } from "../../lib/rules";

// Nothing here but strings: the dispatcher prints them without loading any command.

type Usage = {
  /** One line per form of the command, as `baton --help` lists it. */
  synopsis: string;
  /** What the options mean and where the values come from, shown by `baton <command> --help`. */
  details: string;
};

/**
 * Every command's usage, printed by `baton <command> --help` (or `-h`, anywhere after the command).
 * The dispatcher's table of commands must name exactly these keys (checked by the type system), so a
 * new command cannot ship without its help.
 */
export const USAGE = {
  login: {
    synopsis: `  baton login [--url URL] [--no-browser]   sign in: approve a code in the browser, the token lands here`,
    details: `Prints an address with a short code (and opens it when this machine has a browser). Open it
anywhere you are signed in to Baton, a phone or another machine too, check that the code matches, choose
the token's name, scope and projects, and approve. The CLI then receives the token and keeps it, with the
server's URL, in ~/.config/baton/config.json (readable by you alone; other keys kept), and says whom it
signed in. The code expires after 10 minutes and works once.
  --url URL        the server (default: BATON_URL or url in the config file)
  --no-browser     print the address only (over SSH nothing is opened anyway)`,
  },
  whoami: {
    synopsis: `  baton whoami                          whose token this is: the account, the token's name and scope, the server`,
    details: `Asks the server about the token the CLI uses (BATON_TOKEN, else the config file). Exit 6 when it is refused.`,
  },
  logout: {
    synopsis: `  baton logout                          revoke the token on the server and remove it from the config file`,
    details: `Revokes the token the CLI uses, then removes it from ~/.config/baton/config.json (the URL stays). With
the server out of reach the token is still removed from the file; the command says it could not be
revoked (revoke it under Settings → API tokens) and exits 5; a read token cannot revoke itself either (exit 1).`,
  },
  hook: {
    synopsis: `  baton hook session-start              Claude Code SessionStart hook: prints the context (never fails)
  baton hook prompt                     UserPromptSubmit hook: learnings relevant to the prompt, new to the session
  baton hook pre-compact                PreCompact hook: posts a checkpoint handoff of the session so far
  baton hook session-end | stop         SessionEnd / Stop hook: leaves a handoff and learning candidates`,
    details: `Hooks read Claude Code's hook JSON on stdin and always exit 0: a server that is down, slow or refuses
the token never blocks the session.
  session-start   answers within BATON_TIMEOUT_MS (default 2000)
  prompt          sends the prompt's first ${PROMPT_HINT_CHARS} characters, secrets withheld; prints the learnings
                  relevant to it that the session was not given yet, or nothing; within
                  BATON_PROMPT_TIMEOUT_MS (default 1000, or promptTimeoutMs in the config file)
  pre-compact     posts the transcript so far as the session's handoff (SessionEnd later replaces it),
                  so the context after the compaction leads with it; within BATON_TIMEOUT_MS
  --agent NAME    the coding agent whose hook this is (claude by default; \`baton install\` sets it)
What a hook could not do is written to ~/.cache/baton/hook.log.`,
  },
  pickup: {
    synopsis: `  baton pickup [id] [--no-inject] [--max-chars N] [--project SLUG]`,
    details: `Claims the next queued session document of the project (or the one named there) and prints it, then
each file listed in its specs and files, read from the repository. An id is unique within its project:
with no project configured, an id the guessed project does not have is looked for in all of yours.
  --no-inject      print the document alone
  --max-chars N    cut the output at N characters (default 100000)
  --project SLUG   the project (default: .baton.json, else the one the server matches to this repository)`,
  },
  session: {
    synopsis: `  baton session new [--spec P]... [--file P]... [--priority P] [--title T] [--tag T]... [-m TEXT]
  baton session list [--status todo|doing|done] [--limit N]
  baton session pickup [id] [--no-inject] [--max-chars N]   (also: baton pickup)
  baton session complete|release <id> [--project SLUG]`,
    details: `new        queues a session document; the body is -m TEXT or stdin. --id ID names it; paths are
           relative to where you are and must be inside the repository.
list       the project's queue in pickup order
pickup     claims the next (or the named) document and prints it with the files it lists
complete   marks a document you hold (or, as an owner, anyone's) done
release    puts it back in the queue
  --project SLUG   the project (default: .baton.json, else the one the server matches to this repository)`,
  },
  handoff: {
    synopsis: `  baton handoff write [-m TEXT] [--branch B] [--session-id ID]   a handoff for the next session
  baton handoff show [--branch B]       the latest handoff of the project`,
    details: `write  posts a handoff; the text is -m TEXT or stdin, --branch defaults to the current branch.
show   prints the project's latest handoff (on --branch B if it has one).
(Session documents, queued work, are \`baton session new\`.)`,
  },
  task: {
    synopsis: `  baton task start|stop|show [taskId]   the active task, its memory file and its import`,
    details: `start <taskId>   makes it your active task, writes backlog/memory/<taskId>.md and imports it in CLAUDE.local.md
                 (Claude Code's personal project memory), both kept out of git in .git/info/exclude (a
                 memory file that was already there is left as it is); CLAUDE.md, which teams commit,
                 is not touched, but for a block an earlier Baton left there, which goes
stop [taskId]    saves the memory file to the server, clears the active task, removes the import
show [taskId]    prints the task's memory (your active task's by default)
  --project SLUG   the project (default: .baton.json, else the one the server matches to this repository)`,
  },
  learnings: {
    synopsis: `  baton learnings [query] [--project SLUG] [--kind K] [--all]`,
    details: `Your learnings, newest first, or those matching the query (full text).
  --project SLUG   a project's learnings (default: the project in .baton.json)
  --kind K         ${LEARNING_KINDS.join(", ")}
  --limit N        how many (default 50)
  --all            ignore the project in .baton.json`,
  },
  remember: {
    synopsis: `  baton remember "TEXT" [--kind K] [--project SLUG]   propose a learning on the spot (agents)`,
    details: `Proposes TEXT as a learning, marked as proposed by the agent: it waits in the review queue (the
dashboard's Proposals page) and reaches later sessions once someone accepts it. For coding agents (and
the Claude Code plugin's /remember) to keep what a session taught: a correction, a fix that took effort,
a decision and its reason, a fact about the code or environment that is not obvious.
  --kind K         pattern (how things are done here, the default) or insight (a fact learned)
  --project SLUG   the project (default: .baton.json, else the one the server matches to this
                   repository; personal when none matches)
Its source is the session id in BATON_SESSION_ID or CLAUDE_SESSION_ID, else "remember".`,
  },
  invites: {
    synopsis: `  baton invites                         invitations to projects waiting for your answer
  baton invites accept|decline <project>`,
    details: `Nobody joins a project without saying yes: an owner invites your email (dashboard, project settings),
and you become a member when you accept.
list (default)       each pending invitation: project, role, who invited you, when
accept <project>     join the project with the role you were invited as
decline <project>    say no; nothing of yours ever reaches the project
Leave a project later from its settings page in the dashboard.`,
  },
  install: {
    synopsis: `  baton install claude|codex|gemini|copilot|opencode [--dry-run] [--scope user|repo] [--command P] [--url U]`,
    details: `Merges Baton's hooks (session start, each prompt, before compaction where the agent has it, session
end) and its MCP server into the agent's configuration, keeping everything else; running it twice
changes nothing. Claude Code: .claude/settings.json and .mcp.json at the repository root. The others:
their user configuration in HOME by default (--scope repo for the repository's, where the agent has one).
What the agent asks you to confirm (trusting hooks or a folder) is said after installing.
  --dry-run          show the change as a diff, write nothing
  --scope user|repo  the agent's user-wide or repository configuration
  --command PREFIX   what the hooks run (default: \`baton\` when the baton on your PATH is this CLI,
                     else this file by its absolute path)
  --url URL          the server (default: BATON_URL or url in the config file)`,
  },
  doctor: {
    synopsis: `  baton doctor                          the server, and each agent on this machine: Baton installed?`,
    details: `Checks what the hooks need: the server reachable, the token taken, the project sessions here go to;
then each coding agent found on this machine (on PATH, or its folder in HOME): whether Baton's hooks
and MCP entry are in its configuration (user-wide or this repository's). Exit 0 when all is well, else
5 (server unreachable), 6 (token refused), 2 (nothing configured) or 1 (an agent found without Baton).`,
  },
  import: {
    synopsis: `  baton import <path> [--project SLUG]  seed.json, Amplifier handoffs, backlog/memory, .spx/sessions`,
    details: `Imports what sits at or below <path>, idempotently: a pai-seed seed.json, Amplifier
projects/<slug>/sessions/<id>/handoff.md, backlog/memory/<task-id>.md, .spx/sessions/todo/*.md.
  --project SLUG   the project for task memory and spx sessions (default: .baton.json, else the server's
                   match for the repository, else one named like it, created)`,
  },
  mcp: {
    synopsis: `  baton mcp                             MCP over stdio, bridged to the server's /api/mcp`,
    details: `For MCP clients that only speak stdio (baton install writes it into every agent's MCP configuration):
forwards every message to the server's /api/mcp with the token, both found as every command finds them
(BATON_URL and BATON_TOKEN, else the config file \`baton login\` writes). A refused token is answered
with an error naming \`baton login\`, on stderr too.`,
  },
  admin: {
    synopsis: `  baton admin create-user --email E --password P [--name N] [--admin]
  baton admin create-token --email E --name N [--scope read|write] [--project SLUG]...
  baton admin backup FILE     a consistent copy of DATABASE_URL, taken while the server runs
  baton admin restore FILE    a backup into an empty DATABASE_URL (checked first)`,
    details: `Operator commands, run in the server's own checkout against the database DATABASE_URL names (not over
HTTP). create-user makes an admin with --admin (the first account is one anyway). create-token prints
the token alone on stdout, for T=$(baton admin create-token ...).`,
  },
} satisfies Record<string, Usage>;

export type CommandName = keyof typeof USAGE;

const FOOTER = `Configuration: BATON_URL and BATON_TOKEN, or url and token in ~/.config/baton/config.json (baton login writes them), and
{"project": "slug"} in .baton.json at the repository root. Admin commands use DATABASE_URL instead.
Output is JSON when stdout is not a terminal.
Exit codes: 0 ok, 1 failure, 2 usage, 3 conflict, 4 not found, 5 server unreachable, 6 unauthorized.
`;

/** `baton --help`: every command's synopsis. */
export function overallHelp(version: string): string {
  const synopses = Object.values(USAGE).map((u: Usage) => u.synopsis);
  return `baton ${version} — the command line of Baton, the context hub for coding agents

Usage:
${synopses.join("\n")}
  baton --version                       this CLI's version

${FOOTER}`;
}

/** `baton <command> --help`. */
export function commandHelp(command: CommandName): string {
  const usage: Usage = USAGE[command];
  return `Usage:\n${usage.synopsis}\n\n${usage.details}\n`;
}

const LITERAL = /^[a-z][a-z0-9-]*(\|[a-z][a-z0-9-]*)*$/;

/**
 * What `baton <command> --help` would be asked about that the command does not have: a subcommand its
 * synopsis does not name, an option its usage does not mention. So a command shown somewhere (the
 * dashboard, the README) can be checked by running it with `--help` (test/integration/shown-commands.test.ts),
 * and `baton handoff new --help` says there is no such thing instead of printing the help.
 */
export function helpProblem(command: CommandName, args: string[]): string | null {
  const usage: Usage = USAGE[command];
  const forms = usage.synopsis.split("\n").map((line) => {
    // A form: its words after `baton <command>`, up to the description (two spaces or more).
    const words = line.trim().slice(`baton ${command}`.length).trim().split(/\s{2,}/)[0]!.replace(/\s*\|\s*/g, "|");
    return words.split(/\s+/).filter(Boolean)[0];
  });
  const subcommands = new Set(forms.flatMap((first) => (first && LITERAL.test(first) ? first.split("|") : [])));
  const anyArgument = forms.some((first) => first !== undefined && !LITERAL.test(first) && !first.startsWith("[-"));
  const options = new Set(`${usage.synopsis}\n${usage.details}`.match(/(?<![\w-])--?[a-zA-Z][\w-]*/g) ?? []);
  const given = args.slice(0, args.includes("--") ? args.indexOf("--") : args.length);
  const [first] = given;
  if (first !== undefined && !first.startsWith("-") && !anyArgument && !subcommands.has(first)) {
    return subcommands.size ? `baton ${command} has no "${first}": ${[...subcommands].join(", ")}.` : `baton ${command} takes no "${first}".`;
  }
  const unknown = given.filter((a) => a.startsWith("-") && a !== "--help" && a !== "-h").map((a) => a.split("=")[0]!).find((a) => !options.has(a));
  return unknown ? `baton ${command} has no option ${unknown}.` : null;
}

/** `--help` or `-h` among the arguments (before a `--` that ends the options). */
export function asksForHelp(args: string[]): boolean {
  for (const arg of args) {
    if (arg === "--") return false;
    if (arg === "--help" || arg === "-h") return true;
  }
  return false;
}
